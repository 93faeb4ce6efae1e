package mangabaka

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mangabookmark/backend/trackers"
)

// The library entry's states (MangaBaka's OpenAPI: considering, completed,
// dropped, paused, plan_to_read, reading, rereading) in the room's words.
var fromState = map[string]trackers.Status{
	"reading":      trackers.StatusCurrent,
	"plan_to_read": trackers.StatusPlanning,
	"considering":  trackers.StatusPlanning,
	"completed":    trackers.StatusCompleted,
	"dropped":      trackers.StatusDropped,
	"paused":       trackers.StatusPaused,
	"rereading":    trackers.StatusRepeating,
}

// toState is a write's state: the room's status in MangaBaka's words.
var toState = map[trackers.Status]string{
	trackers.StatusCurrent:   "reading",
	trackers.StatusPlanning:  "plan_to_read",
	trackers.StatusCompleted: "completed",
	trackers.StatusDropped:   "dropped",
	trackers.StatusPaused:    "paused",
	trackers.StatusRepeating: "rereading",
}

// List is not how MangaBaka is read: its libraries are private, read with
// the Reader's token (ListMine). It answers trackers.ErrNoSuchUser
// without a request.
func (c *Client) List(context.Context, string) (trackers.Collection, error) {
	return trackers.Collection{}, fmt.Errorf("mangabaka: list: libraries are read with the Reader's token: %w", trackers.ErrNoSuchUser)
}

// rawEntry is a library entry as sent; every field is read leniently.
type rawEntry struct {
	SeriesID json.RawMessage `json:"series_id"`
	State    json.RawMessage `json:"state"`
	Chapter  json.RawMessage `json:"progress_chapter"`
	Series   json.RawMessage `json:"Series"`
}

// page is `pagination`: only `next` (a URL, null on the last page) is
// read, to stop; the next page is always asked by number, never at a URL
// the answer names.
type page struct {
	Next json.RawMessage `json:"next"`
}

// ListMine reads the token's whole library, PageSize entries a page, in
// order, until a short page or `pagination.next` is null. A media listed
// twice counts once, at its highest count; an entry that cannot be read
// is listed in Refused. More than MaxPages full pages is
// ErrAnswerTooLarge.
func (c *Client) ListMine(ctx context.Context, token string) (trackers.Collection, error) {
	if !tokenOK(token) {
		return trackers.Collection{}, fmt.Errorf("mangabaka: list: not a personal access token: %w", trackers.ErrTokenRefused)
	}
	var coll trackers.Collection
	for n := 1; ; n++ {
		if n > MaxPages {
			return trackers.Collection{}, fmt.Errorf("mangabaka: list: more than %d pages: %w", MaxPages, trackers.ErrAnswerTooLarge)
		}
		a, err := c.call(ctx, trackers.KindList, http.MethodGet,
			"/v1/my/library?page="+strconv.Itoa(n)+"&limit="+strconv.Itoa(PageSize), token, nil)
		if err != nil {
			return trackers.Collection{}, err
		}
		if a.status != http.StatusOK {
			return trackers.Collection{}, fmt.Errorf("mangabaka: list: HTTP %d: %w", a.status, trackers.ErrBadAnswer)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(a.env.Data, &items); err != nil {
			return trackers.Collection{}, fmt.Errorf("mangabaka: list: data is not an array: %w", trackers.ErrBadAnswer)
		}
		if len(items) > PageSize {
			return trackers.Collection{}, fmt.Errorf("mangabaka: list: a page of %d entries, asked %d: %w", len(items), PageSize, trackers.ErrAnswerTooLarge)
		}
		for _, raw := range items {
			e, bad := readEntry(raw)
			if bad != nil {
				coll.Refused = append(coll.Refused, *bad)
				continue
			}
			coll.Entries = append(coll.Entries, e)
		}
		var p page
		_ = json.Unmarshal(a.env.Pagination, &p)
		if len(items) < PageSize || string(p.Next) == "null" {
			coll.Entries = trackers.OnePerMedia(coll.Entries)
			return coll, nil
		}
	}
}

// readEntry reads one list entry, or says why it cannot be read.
func readEntry(raw json.RawMessage) (trackers.Entry, *trackers.Refused) {
	var r rawEntry
	if err := json.Unmarshal(raw, &r); err != nil {
		return trackers.Entry{}, &trackers.Refused{Reason: "The entry is not an object."}
	}
	id, ok := readID(r.SeriesID)
	if !ok {
		var s struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(r.Series, &s) == nil {
			id, ok = readID(s.ID)
		}
	}
	if !ok {
		return trackers.Entry{}, &trackers.Refused{MediaID: cut(string(r.SeriesID), 32), Reason: "The entry's series_id is not a MangaBaka series id."}
	}
	n, why := readCount(r.Chapter)
	if why != "" {
		return trackers.Entry{}, &trackers.Refused{MediaID: id, Reason: why}
	}
	var state string
	_ = json.Unmarshal(r.State, &state)
	return trackers.Entry{MediaID: id, Progress: n, Status: fromState[state]}, nil
}

// readID reads a series id sent as a whole number or a digit string.
func readID(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		s = n.String()
	}
	return s, mediaOK(s)
}

// readCount reads progress_chapter: a number or a numeric string
// (clients decode both), null or absent as 0. A fractional count reads as
// its whole part (the chapters read whole); a negative, non-finite or
// over-MaxChapter one is refused with the reason.
func readCount(raw json.RawMessage) (int, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, ""
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || math.IsNaN(f):
		return 0, "The entry's progress_chapter is not a number."
	case f < 0:
		return 0, "The entry's progress_chapter is negative."
	case f > MaxChapter:
		return 0, fmt.Sprintf("The entry's progress_chapter is over MangaBaka's %d.", MaxChapter)
	}
	return int(f), ""
}

// Progress reads the token's entry for one series: its count and state,
// or OnList false (404).
func (c *Client) Progress(ctx context.Context, token, mediaID string) (trackers.Remote, error) {
	if !tokenOK(token) {
		return trackers.Remote{}, fmt.Errorf("mangabaka: progress: not a personal access token: %w", trackers.ErrTokenRefused)
	}
	if !mediaOK(mediaID) {
		return trackers.Remote{}, fmt.Errorf("mangabaka: progress: %q is not a series id: %w", cut(mediaID, 32), trackers.ErrNoSuchMedia)
	}
	a, err := c.call(ctx, trackers.KindProgress, http.MethodGet, "/v1/my/library/"+mediaID, token, nil)
	if err != nil {
		return trackers.Remote{}, err
	}
	if a.status == http.StatusNotFound {
		return trackers.Remote{}, nil
	}
	e, bad := readEntry(a.env.Data)
	if bad != nil {
		return trackers.Remote{}, fmt.Errorf("mangabaka: progress: %s: %w", bad.Reason, trackers.ErrBadAnswer)
	}
	return trackers.Remote{OnList: true, Progress: e.Progress, Status: e.Status}, nil
}

// Save writes the token's entry for one series: PUT (an update, which
// leaves the fields it does not send), and POST (a new entry) when PUT
// answers 404. It sends only progress_chapter (the whole chapter number)
// and state. A count over MaxChapter is ErrNoSuchMedia (no write can hold
// it); a write MangaBaka answers without `data: true` is ErrBadAnswer.
func (c *Client) Save(ctx context.Context, token, mediaID string, w trackers.Write) (trackers.Remote, error) {
	switch {
	case !tokenOK(token):
		return trackers.Remote{}, fmt.Errorf("mangabaka: save: not a personal access token: %w", trackers.ErrTokenRefused)
	case !mediaOK(mediaID):
		return trackers.Remote{}, fmt.Errorf("mangabaka: save: %q is not a series id: %w", cut(mediaID, 32), trackers.ErrNoSuchMedia)
	case w.Progress < 0 || w.Progress > MaxChapter:
		return trackers.Remote{}, fmt.Errorf("mangabaka: save: chapter %d is outside MangaBaka's 0..%d: %w", w.Progress, MaxChapter, trackers.ErrNoSuchMedia)
	}
	state, ok := toState[w.Status]
	if !ok {
		state = "reading"
	}
	body := map[string]any{"progress_chapter": w.Progress, "state": state}
	a, err := c.call(ctx, trackers.KindSave, http.MethodPut, "/v1/my/library/"+mediaID, token, body)
	if err == nil && a.status == http.StatusNotFound {
		a, err = c.call(ctx, trackers.KindSave, http.MethodPost, "/v1/my/library/"+mediaID, token, body)
	}
	if err != nil {
		return trackers.Remote{}, err
	}
	if a.status == http.StatusNotFound {
		return trackers.Remote{}, fmt.Errorf("mangabaka: save: no series %s: %w", mediaID, trackers.ErrNoSuchMedia)
	}
	if string(a.env.Data) != "true" {
		return trackers.Remote{}, fmt.Errorf("mangabaka: save: the write's data is not true: %w", trackers.ErrBadAnswer)
	}
	return trackers.Remote{OnList: true, Progress: w.Progress, Status: fromState[state]}, nil
}

// Viewer names the token's account (GET /v1/my/profile): its
// preferred_username, else its nickname, else its id.
func (c *Client) Viewer(ctx context.Context, token string) (trackers.Account, error) {
	if !tokenOK(token) {
		return trackers.Account{}, fmt.Errorf("mangabaka: viewer: not a personal access token: %w", trackers.ErrTokenRefused)
	}
	a, err := c.call(ctx, trackers.KindViewer, http.MethodGet, "/v1/my/profile", token, nil)
	if err != nil {
		return trackers.Account{}, err
	}
	if a.status != http.StatusOK {
		return trackers.Account{}, fmt.Errorf("mangabaka: viewer: HTTP %d: %w", a.status, trackers.ErrBadAnswer)
	}
	var p struct {
		ID        json.RawMessage `json:"id"`
		Preferred json.RawMessage `json:"preferred_username"`
		Nickname  json.RawMessage `json:"nickname"`
	}
	if json.Unmarshal(a.env.Data, &p) != nil {
		return trackers.Account{}, fmt.Errorf("mangabaka: viewer: data is not an object: %w", trackers.ErrBadAnswer)
	}
	id := name(p.ID)
	acct := trackers.Account{ID: id, Name: name(p.Preferred)}
	if acct.Name == "" {
		acct.Name = name(p.Nickname)
	}
	if acct.Name == "" {
		acct.Name = id
	}
	if acct.Name == "" {
		return trackers.Account{}, fmt.Errorf("mangabaka: viewer: the profile names no one: %w", trackers.ErrBadAnswer)
	}
	return acct, nil
}

// name reads a profile field as a string (a number's digits too), empty
// when it is anything else, has a control character or is over 64 bytes.
func name(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return ""
		}
		s = n.String()
	}
	s = strings.TrimSpace(s)
	if len(s) > 64 || !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return ""
	}
	return s
}

// cut is s cut to at most n bytes, for an error's or a list's text.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
