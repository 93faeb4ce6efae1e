package anilist

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"mangabookmark/backend/trackers"
)

// intID reads a media id given as text: decimal, 1 to 2^31-1.
func intID(mediaID string) (int64, error) {
	n, err := strconv.ParseInt(mediaID, 10, 32)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("anilist: media id %q is not an AniList media id: %w", cut(mediaID, 32), trackers.ErrNoSuchMedia)
	}
	return n, nil
}

// wireEntry is a MediaList as entryDocument and saveDocument read it.
type wireEntry struct {
	MediaID  json.RawMessage `json:"mediaId"`
	Status   json.RawMessage `json:"status"`
	Progress json.RawMessage `json:"progress"`
}

func (w *wireEntry) remote() (trackers.Remote, error) {
	n, reason := progress(w.Progress)
	if reason != "" {
		return trackers.Remote{}, fmt.Errorf("%s: %w", reason, trackers.ErrBadAnswer)
	}
	return trackers.Remote{OnList: true, Progress: n, Status: status(w.Status)}, nil
}

// Progress reads the token's own entry for mediaID (a Media's
// mediaListEntry): its count and status, or OnList false.
func (c *Client) Progress(ctx context.Context, token, mediaID string) (trackers.Remote, error) {
	id, err := intID(mediaID)
	if err != nil {
		return trackers.Remote{}, err
	}
	if token == "" {
		return trackers.Remote{}, fmt.Errorf("anilist: progress: no token: %w", trackers.ErrTokenRefused)
	}
	var data struct {
		Media *struct {
			MediaListEntry *wireEntry `json:"mediaListEntry"`
		} `json:"Media"`
	}
	if err := c.post(ctx, trackers.KindProgress, token, entryDocument, map[string]any{"mediaId": id}, &data); err != nil {
		return trackers.Remote{}, err
	}
	if data.Media == nil {
		return trackers.Remote{}, fmt.Errorf("anilist: progress: no Media in the answer: %w", trackers.ErrNoSuchMedia)
	}
	if data.Media.MediaListEntry == nil {
		return trackers.Remote{}, nil
	}
	r, err := data.Media.MediaListEntry.remote()
	if err != nil {
		return trackers.Remote{}, fmt.Errorf("anilist: progress: %w", err)
	}
	return r, nil
}

// Save writes the token's entry for mediaID (SaveMediaListEntry by
// mediaId, created when missing) and returns it as AniList now holds it.
func (c *Client) Save(ctx context.Context, token, mediaID string, w trackers.Write) (trackers.Remote, error) {
	id, err := intID(mediaID)
	if err != nil {
		return trackers.Remote{}, err
	}
	if token == "" {
		return trackers.Remote{}, fmt.Errorf("anilist: save: no token: %w", trackers.ErrTokenRefused)
	}
	if w.Progress < 0 || w.Progress > trackers.MaxProgress || w.Status == trackers.StatusNone {
		return trackers.Remote{}, fmt.Errorf("anilist: save: refusing to write count %d with status %q", w.Progress, w.Status)
	}
	var data struct {
		Saved *wireEntry `json:"SaveMediaListEntry"`
	}
	vars := map[string]any{"mediaId": id, "progress": w.Progress, "status": string(w.Status)}
	if err := c.post(ctx, trackers.KindSave, token, saveDocument, vars, &data); err != nil {
		return trackers.Remote{}, err
	}
	if data.Saved == nil {
		return trackers.Remote{}, fmt.Errorf("anilist: save: no SaveMediaListEntry in the answer: %w", trackers.ErrBadAnswer)
	}
	r, err := data.Saved.remote()
	if err != nil {
		return trackers.Remote{}, fmt.Errorf("anilist: save: %w", err)
	}
	return r, nil
}

// Viewer names the token's AniList account.
func (c *Client) Viewer(ctx context.Context, token string) (trackers.Account, error) {
	if token == "" {
		return trackers.Account{}, fmt.Errorf("anilist: viewer: no token: %w", trackers.ErrTokenRefused)
	}
	var data struct {
		Viewer *struct {
			ID   json.RawMessage `json:"id"`
			Name string          `json:"name"`
		} `json:"Viewer"`
	}
	if err := c.post(ctx, trackers.KindViewer, token, viewerDocument, nil, &data); err != nil {
		return trackers.Account{}, err
	}
	if data.Viewer == nil || data.Viewer.Name == "" || len(data.Viewer.Name) > maxUserName {
		return trackers.Account{}, fmt.Errorf("anilist: viewer: no usable Viewer in the answer: %w", trackers.ErrBadAnswer)
	}
	id, ok := mediaID(data.Viewer.ID) // a user id has the same shape
	if !ok {
		return trackers.Account{}, fmt.Errorf("anilist: viewer: no usable user id in the answer: %w", trackers.ErrBadAnswer)
	}
	return trackers.Account{ID: id, Name: data.Viewer.Name}, nil
}
