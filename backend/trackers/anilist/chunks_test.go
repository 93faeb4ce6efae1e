package anilist

import (
	"errors"
	"net/http"
	"strconv"
	"testing"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

// TestListReadsEveryChunk (issue 47): a list of 5,000 entries is read
// whole, in chunks of AniList's most (500: ten list requests), and a
// media on two lists in two chunks counts once at its highest count. The
// stand-in cuts an answer asked without chunks to 1,000 entries, so a
// client that ignores chunks reads a cut list and fails here.
func TestListReadsEveryChunk(t *testing.T) {
	t.Parallel()
	s, e := standIn(t, anilisttest.Config{Unchunked: 1000})
	entries := make([]trackers.Entry, 5000)
	for i := range entries {
		st := trackers.StatusCurrent
		if i%3 == 0 {
			st = trackers.StatusCompleted
		}
		entries[i] = trackers.Entry{MediaID: strconv.Itoa(i + 1), Progress: i % 700, Status: st}
	}
	s.AddUser("big", entries...)
	c, err := e.client.List(t.Context(), "big")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 5000 || len(c.Refused) != 0 {
		t.Fatalf("%d entries (%d refused), want 5000", len(c.Entries), len(c.Refused))
	}
	got := map[string]int{}
	for _, en := range c.Entries {
		got[en.MediaID] = en.Progress
	}
	for i, en := range entries {
		if n, ok := got[en.MediaID]; !ok || n != en.Progress {
			t.Fatalf("entry %d (media %s): %d %v, want %d", i, en.MediaID, n, ok, en.Progress)
		}
	}
	if n := s.Requests(trackers.KindList); n != 10 {
		t.Fatalf("%d list requests for 5000 entries, want 10 chunks of 500", n)
	}
	// The settings' check of a user name reads one entry, not the list.
	if err := e.client.CheckUser(t.Context(), "big"); err != nil || s.Requests(trackers.KindList) != 11 {
		t.Fatalf("check user: %v after %d requests, want nil after 11", err, s.Requests(trackers.KindList))
	}
	if err := e.client.CheckUser(t.Context(), "nobody"); !errors.Is(err, trackers.ErrNoSuchUser) {
		t.Fatalf("check an unknown user: %v", err)
	}
}

// TestListChunksBounded: an answer that always says another chunk follows
// (empty chunks, or full ones past trackers.MaxEntries) stops with
// ErrAnswerTooLarge after a bounded number of requests, nothing used.
func TestListChunksBounded(t *testing.T) {
	t.Parallel()
	f, e := serveFixture(t, http.StatusOK, nil, `{"data":{"MediaListCollection":{"hasNextChunk":true,"lists":[]}}}`)
	e.clock.SetActors(1) // the limiter's waits pass at once
	c, err := e.client.List(t.Context(), "endless")
	if !errors.Is(err, trackers.ErrAnswerTooLarge) || len(c.Entries) != 0 {
		t.Fatalf("endless empty chunks: %+v, %v", c, err)
	}
	if n := len(f.requests()); n != maxChunks {
		t.Fatalf("%d requests, want the bound %d", n, maxChunks)
	}
	for i, r := range f.requests()[:3] {
		vars, _ := r.Body["variables"].(map[string]any)
		if vars["chunk"] != float64(i+1) || vars["perChunk"] != float64(perChunk) {
			t.Fatalf("request %d asked %v, want chunk %d of %d", i+1, vars, i+1, perChunk)
		}
	}
}
