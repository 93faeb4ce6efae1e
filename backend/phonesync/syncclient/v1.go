package syncclient

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// V1 is a phone syncing by the SyncYomi protocol v1, written from
// TachiyomiSY's client (jobobby04/TachiyomiSY at
// 14648c7cf0aa84e5a35d48de9dbf1386df6cca42, "SY-stable" in
// docs/sources.md ("Phone sync"), checked 2026-12-06):
// app/src/main/java/eu/kanade/tachiyomi/data/sync/service/SyncYomiSyncService.kt
// (pull, push, events; its v1 path is unchanged in the v2 pull request at
// 143071e64d2f6c5ffefea6a693c154c6a7983394) and
// app/src/main/java/eu/kanade/tachiyomi/data/sync/service/SyncService.kt
// (the local merge). Nothing of their code is copied; the behaviour is:
//
//   - GET /api/sync/content with X-API-Token, and If-None-Match when it
//     holds an ETag. 304: nothing new, push the local library with
//     If-Match set to that ETag. 404: push with no If-Match. 2xx: the
//     ETag must be there ("Missing ETag" fails the sync); the body is
//     raw protobuf; a body that does not decode counts as nothing stored.
//     Any other status fails the sync with the body as its message.
//   - merge local and remote (Merge), then PUT the result, gzipped when
//     Gzip (the v2 pull request's client) else raw (the stable client),
//     with If-Match when it holds an ETag. 2xx: the ETag must be there and
//     is kept. 412: the sync gives up until next time. Else it fails.
//   - POST /api/sync/event around the sync; its answer is ignored.
type V1 struct {
	Host       string // the server's base URL
	Key        string // the sync key
	DeviceID   string // sent as X-Device-ID when not "" (the v2 pull request's client)
	DeviceName string // sent as X-Device-Name when not ""
	Gzip       bool   // upload gzipped with Content-Encoding: gzip
	HTTP       *http.Client
	Now        func() time.Time // nil: time.Now

	// State the app keeps between syncs.
	ETag     string // the last ETag of a good push
	LastSync int64  // seconds; 0 before the first sync
	Local    *Library
}

// Outcome is how one sync ended.
type Outcome struct {
	Pulled  bool // the server answered a library (2xx)
	Status  int  // the GET's status
	Pushed  bool // the push was taken (2xx)
	Refused bool // the push was answered 412
}

// ErrSync is a failed sync (a status the client does not take, a missing
// ETag); its text is what the app shows.
var ErrSync = errors.New("syncclient: sync failed")

// Sync runs one v1 sync of c.Local. On a taken push, c.Local becomes the
// merged library (as the app restores it) and LastSync the push's time.
func (c *V1) Sync(ctx context.Context) (Outcome, error) {
	var out Outcome
	c.event(ctx, "SYNC_STARTED", "")
	remote, etag, status, err := c.pull(ctx)
	out.Status = status
	if err != nil {
		c.event(ctx, "SYNC_ERROR", err.Error())
		return out, err
	}
	final := c.Local
	if remote != nil {
		out.Pulled = true
		final = Merge(c.Local, remote, c.LastSync)
	}
	pushed, refused, err := c.push(ctx, final, etag)
	out.Pushed, out.Refused = pushed, refused
	switch {
	case err != nil:
		c.event(ctx, "SYNC_ERROR", err.Error())
		return out, err
	case pushed:
		c.Local, c.LastSync = final, c.now().Unix()
		c.event(ctx, "SYNC_SUCCESS", "")
	default:
		c.event(ctx, "SYNC_FAILED", "Failed to push sync data")
	}
	return out, nil
}

func (c *V1) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

func (c *V1) client() *http.Client {
	if c.HTTP == nil {
		return http.DefaultClient
	}
	return c.HTTP
}

func (c *V1) request(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.Host, "/")+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-Token", c.Key)
	if c.DeviceID != "" {
		req.Header.Set("X-Device-ID", c.DeviceID)
	}
	if c.DeviceName != "" {
		req.Header.Set("X-Device-Name", c.DeviceName)
	}
	return req, nil
}

// pull is the app's pullSyncData: the remote library (nil for none) and
// the ETag to push with.
func (c *V1) pull(ctx context.Context) (*Library, string, int, error) {
	req, err := c.request(ctx, http.MethodGet, "/api/sync/content", nil)
	if err != nil {
		return nil, "", 0, err
	}
	if c.ETag != "" {
		req.Header.Set("If-None-Match", c.ETag)
	}
	resp, err := c.client().Do(req)
	if err != nil {
		return nil, "", 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", resp.StatusCode, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return nil, c.ETag, resp.StatusCode, nil
	case resp.StatusCode == http.StatusNotFound:
		return nil, "", resp.StatusCode, nil
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		etag := resp.Header.Get("ETag")
		if etag == "" {
			return nil, "", resp.StatusCode, fmt.Errorf("%w: Missing ETag", ErrSync)
		}
		lib, err := Decode(body)
		if err != nil {
			return nil, "", resp.StatusCode, nil // bad content: overwrite it
		}
		return lib, etag, resp.StatusCode, nil
	}
	return nil, "", resp.StatusCode, fmt.Errorf("%w: Failed to download sync data: %s", ErrSync, body)
}

// push is the app's pushSyncData: taken, refused with 412, or an error.
func (c *V1) push(ctx context.Context, lib *Library, etag string) (bool, bool, error) {
	body := lib.Proto()
	if c.Gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = buf.Bytes()
	}
	req, err := c.request(ctx, http.MethodPut, "/api/sync/content", bytes.NewReader(body))
	if err != nil {
		return false, false, err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	if c.Gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	if etag != "" {
		req.Header.Set("If-Match", etag)
	}
	resp, err := c.client().Do(req)
	if err != nil {
		return false, false, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		e := resp.Header.Get("ETag")
		if e == "" {
			return false, false, fmt.Errorf("%w: Missing ETag", ErrSync)
		}
		c.ETag = e
		return true, false, nil
	case resp.StatusCode == http.StatusPreconditionFailed:
		return false, true, nil
	}
	return false, false, fmt.Errorf("%w: Failed to upload sync data (%d): %s", ErrSync, resp.StatusCode, msg)
}

// event posts a sync event; as in the app, its answer and errors are
// ignored.
func (c *V1) event(ctx context.Context, event, message string) {
	b, _ := json.Marshal(map[string]string{"event": event, "device_name": c.DeviceName, "message": message})
	req, err := c.request(ctx, http.MethodPost, "/api/sync/event", bytes.NewReader(b))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if resp, err := c.client().Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// Merge is the app's local merge of SyncService.kt (SY-stable): manga
// keyed source|url, chapters keyed by url. Where both sides hold one, the
// higher version wins and a tie keeps the local copy; a manga's chapter
// lists are merged the same way whichever copy wins. Where only one side
// holds one, it is kept only when its lastModifiedAt (seconds) is after
// the last sync, else it counts as deleted elsewhere. Other top-level
// fields: the local ones, then the remote ones the local side lacks.
func Merge(local, remote *Library, lastSync int64) *Library {
	out := &Library{}
	rm := map[string]Manga{}
	for _, m := range remote.Manga {
		rm[m.Key()] = m
	}
	seen := map[string]bool{}
	for _, l := range local.Manga {
		seen[l.Key()] = true
		r, ok := rm[l.Key()]
		switch {
		case ok:
			w := l
			if r.Version > l.Version {
				w = r
			}
			w.Chapters = mergeChapters(l.Chapters, r.Chapters, lastSync)
			out.Manga = append(out.Manga, w)
		case l.LastModifiedAt > lastSync || lastSync == 0:
			out.Manga = append(out.Manga, l)
		}
	}
	for _, r := range remote.Manga {
		if !seen[r.Key()] && (r.LastModifiedAt > lastSync || lastSync == 0) {
			out.Manga = append(out.Manga, r)
		}
	}
	out.Other = append(out.Other, local.Other...)
	for _, f := range remote.Other {
		if !hasField(local.Other, f) {
			out.Other = append(out.Other, f)
		}
	}
	return out
}

func mergeChapters(local, remote []Chapter, lastSync int64) []Chapter {
	rc := map[string]Chapter{}
	for _, c := range remote {
		rc[c.URL] = c
	}
	seen := map[string]bool{}
	var out []Chapter
	for _, l := range local {
		seen[l.URL] = true
		r, ok := rc[l.URL]
		switch {
		case ok && r.Version > l.Version:
			out = append(out, r)
		case ok, l.LastModifiedAt > lastSync || lastSync == 0:
			out = append(out, l)
		}
	}
	for _, r := range remote {
		if !seen[r.URL] && (r.LastModifiedAt > lastSync || lastSync == 0) {
			out = append(out, r)
		}
	}
	return out
}

func hasField(list []Field, f Field) bool {
	for _, g := range list {
		if g.Num == f.Num && bytes.Equal(g.Raw, f.Raw) {
			return true
		}
	}
	return false
}
