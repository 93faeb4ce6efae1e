package anilist

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mangabookmark/backend/trackers"
)

// maxUserName bounds a user name sent to AniList (its names are at most
// 20 characters).
const maxUserName = 64

// perChunk is how many entries one list request asks for: AniList's
// most.
const perChunk = 500

// maxChunks bounds the chunks one List reads: enough for
// trackers.MaxEntries, and one more to learn the list is larger.
const maxChunks = trackers.MaxEntries/perChunk + 1

// List reads user's public manga list (MediaListCollection by userName),
// chunk after chunk until AniList says there is no next one: every
// list's entries, one per media at its highest count (a media on two
// lists may come in two chunks), and the entries that could not be read
// (Refused). An unknown user is trackers.ErrNoSuchUser; more than
// trackers.MaxEntries entries (or chunks past what they need) is
// trackers.ErrAnswerTooLarge and nothing of the answer is used. Each
// chunk is one request, paced by the Limiter.
func (c *Client) List(ctx context.Context, user string) (trackers.Collection, error) {
	user = strings.TrimSpace(user)
	if user == "" || len(user) > maxUserName || !utf8.ValidString(user) {
		return trackers.Collection{}, fmt.Errorf("anilist: list: the user name must be 1 to %d bytes of text: %w", maxUserName, trackers.ErrNoSuchUser)
	}
	var all []json.RawMessage
	for chunk := 1; ; chunk++ {
		if chunk > maxChunks {
			return trackers.Collection{}, fmt.Errorf("anilist: list: more than %d chunks: %w", maxChunks, trackers.ErrAnswerTooLarge)
		}
		var data json.RawMessage
		vars := map[string]any{"userName": user, "chunk": chunk, "perChunk": perChunk}
		if err := c.post(ctx, trackers.KindList, "", listDocument, vars, &data); err != nil {
			return trackers.Collection{}, err
		}
		entries, next, err := parseChunk(data)
		if err != nil {
			return trackers.Collection{}, fmt.Errorf("anilist: list: chunk %d: %w", chunk, err)
		}
		all = append(all, entries...)
		if len(all) > trackers.MaxEntries {
			return trackers.Collection{}, fmt.Errorf("anilist: list: %d entries, over %d: %w", len(all), trackers.MaxEntries, trackers.ErrAnswerTooLarge)
		}
		if !next {
			break
		}
	}
	return collect(all), nil
}

// CheckUser asks AniList whether user has a public manga list, reading
// one entry of it (one request, however long the list): the settings
// check, which waits inside a Reader's request. An unknown user is
// trackers.ErrNoSuchUser.
func (c *Client) CheckUser(ctx context.Context, user string) error {
	user = strings.TrimSpace(user)
	if user == "" || len(user) > maxUserName || !utf8.ValidString(user) {
		return fmt.Errorf("anilist: check user: the user name must be 1 to %d bytes of text: %w", maxUserName, trackers.ErrNoSuchUser)
	}
	var data json.RawMessage
	vars := map[string]any{"userName": user, "chunk": 1, "perChunk": 1}
	if err := c.post(ctx, trackers.KindList, "", listDocument, vars, &data); err != nil {
		return err
	}
	if _, _, err := parseChunk(data); err != nil {
		return fmt.Errorf("anilist: check user: %w", err)
	}
	return nil
}

// parseChunk reads one MediaListCollection answer's data: every list's
// entries, unread, and whether another chunk follows (a missing
// hasNextChunk is false). Wrong types above the entries are
// trackers.ErrBadAnswer.
func parseChunk(raw json.RawMessage) ([]json.RawMessage, bool, error) {
	var data struct {
		MediaListCollection *struct {
			HasNextChunk *bool `json:"hasNextChunk"`
			Lists        []struct {
				Entries []json.RawMessage `json:"entries"`
			} `json:"lists"`
		} `json:"MediaListCollection"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, false, fmt.Errorf("the lists are not the documented shape: %w", trackers.ErrBadAnswer)
	}
	if data.MediaListCollection == nil {
		return nil, false, fmt.Errorf("no MediaListCollection in the answer: %w", trackers.ErrBadAnswer)
	}
	var out []json.RawMessage
	for _, l := range data.MediaListCollection.Lists {
		out = append(out, l.Entries...)
	}
	next := data.MediaListCollection.HasNextChunk != nil && *data.MediaListCollection.HasNextChunk
	return out, next, nil
}

// collect reads a list's entries: one per media at its highest count, and
// the refused ones.
func collect(entries []json.RawMessage) trackers.Collection {
	var out trackers.Collection
	for _, raw := range entries {
		e, refused := readEntry(raw)
		if refused != nil {
			out.Refused = append(out.Refused, *refused)
			continue
		}
		out.Entries = append(out.Entries, e)
	}
	out.Entries = trackers.OnePerMedia(out.Entries)
	return out
}

// readEntry reads one list entry, or says why it cannot be used. Only
// whole, non-negative counts up to trackers.MaxProgress are read: AniList
// counts whole chapters, so anything else is not its answer.
func readEntry(raw json.RawMessage) (trackers.Entry, *trackers.Refused) {
	var v struct {
		MediaID  json.RawMessage `json:"mediaId"`
		Status   json.RawMessage `json:"status"`
		Progress json.RawMessage `json:"progress"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return trackers.Entry{}, &trackers.Refused{Reason: "The entry is not an object."}
	}
	id, ok := mediaID(v.MediaID)
	shown := cut(string(v.MediaID), 32)
	if !ok {
		return trackers.Entry{}, &trackers.Refused{MediaID: shown, Reason: "The entry has no usable media id."}
	}
	n, reason := progress(v.Progress)
	if reason != "" {
		return trackers.Entry{}, &trackers.Refused{MediaID: id, Reason: reason}
	}
	return trackers.Entry{MediaID: id, Progress: n, Status: status(v.Status)}, nil
}

// mediaID reads a media id: a JSON integer from 1 to 2^31-1 (GraphQL's
// Int), as its decimal text.
func mediaID(raw json.RawMessage) (string, bool) {
	s := string(raw)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return "", false
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n <= 0 {
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// progress reads a chapter count (null is 0), or the reason it is
// refused.
func progress(raw json.RawMessage) (int, string) {
	s := string(raw)
	if s == "" || s == "null" {
		return 0, ""
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, "The chapter count is not a number."
	}
	switch {
	case f < 0:
		return 0, "The chapter count is negative."
	case strings.ContainsAny(s, ".eE"):
		return 0, "The chapter count is not a whole number."
	case f > trackers.MaxProgress:
		return 0, fmt.Sprintf("The chapter count is over %d.", trackers.MaxProgress)
	}
	return int(f), ""
}

// status reads a MediaListStatus; an unknown or missing one is
// trackers.StatusNone (a pull moves by count, not status).
func status(raw json.RawMessage) trackers.Status {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return trackers.StatusNone
	}
	for _, known := range trackers.Statuses {
		if trackers.Status(s) == known {
			return known
		}
	}
	return trackers.StatusNone
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
