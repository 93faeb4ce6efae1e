package anilist

import (
	"errors"
	"net/http"
	"testing"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

// TestEntryFixtures: the documented answers of the entry read, the write
// and the Viewer read; each request carries the token as a Bearer header
// and the document and variables it should.
func TestEntryFixtures(t *testing.T) {
	t.Parallel()
	f, e := serveFixture(t, http.StatusOK, nil, "media_entry.json")
	r, err := e.client.Progress(t.Context(), secretToken, "30013")
	if err != nil || r != (trackers.Remote{OnList: true, Progress: 118, Status: trackers.StatusCurrent}) {
		t.Fatalf("Progress = %+v, %v", r, err)
	}
	req := f.requests()[0]
	if req.Auth != "Bearer "+secretToken || req.Body["query"] != entryDocument {
		t.Fatalf("progress request: %+v", req)
	}
	if v, _ := req.Body["variables"].(map[string]any); v["mediaId"] != float64(30013) {
		t.Fatalf("variables: %+v", req.Body["variables"])
	}

	_, e = serveFixture(t, http.StatusOK, nil, "media_no_entry.json")
	if r, err := e.client.Progress(t.Context(), secretToken, "30013"); err != nil || r.OnList {
		t.Fatalf("not on list: %+v, %v", r, err)
	}

	f, e = serveFixture(t, http.StatusOK, nil, "save.json")
	r, err = e.client.Save(t.Context(), secretToken, "30013", trackers.Write{Progress: 120, Status: trackers.StatusCurrent})
	if err != nil || r != (trackers.Remote{OnList: true, Progress: 120, Status: trackers.StatusCurrent}) {
		t.Fatalf("Save = %+v, %v", r, err)
	}
	req = f.requests()[0]
	v, _ := req.Body["variables"].(map[string]any)
	if req.Body["query"] != saveDocument || v["mediaId"] != float64(30013) || v["progress"] != float64(120) || v["status"] != "CURRENT" {
		t.Fatalf("save request: %+v", req.Body)
	}

	_, e = serveFixture(t, http.StatusOK, nil, "viewer.json")
	a, err := e.client.Viewer(t.Context(), secretToken)
	if err != nil || a != (trackers.Account{ID: "5123456", Name: "ReaderOnAniList"}) {
		t.Fatalf("Viewer = %+v, %v", a, err)
	}
}

// TestEntryRefusals: an unknown media is ErrNoSuchMedia, a validation
// error ErrBadAnswer, a 5xx ErrUnavailable; a bad media id or a count
// outside the bounds is refused before any request.
func TestEntryRefusals(t *testing.T) {
	t.Parallel()
	_, e := serveFixture(t, http.StatusNotFound, nil, "not_found.json")
	if _, err := e.client.Progress(t.Context(), secretToken, "99"); !errors.Is(err, trackers.ErrNoSuchMedia) {
		t.Fatalf("404 media: %v", err)
	}
	_, e = serveFixture(t, http.StatusBadRequest, nil, "validation.json")
	if _, err := e.client.Save(t.Context(), secretToken, "99", trackers.Write{Progress: 1, Status: trackers.StatusCurrent}); !errors.Is(err, trackers.ErrBadAnswer) {
		t.Fatalf("validation: %v", err)
	}
	_, e = serveFixture(t, http.StatusBadGateway, nil, "<html>bad gateway</html>")
	if _, err := e.client.Viewer(t.Context(), secretToken); !errors.Is(err, trackers.ErrUnavailable) {
		t.Fatalf("502: %v", err)
	}
	_, e = serveFixture(t, http.StatusOK, nil, `{"data":{"Media":{"id":1,"mediaListEntry":{"status":"CURRENT","progress":-4}}}}`)
	if _, err := e.client.Progress(t.Context(), secretToken, "1"); !errors.Is(err, trackers.ErrBadAnswer) {
		t.Fatalf("negative remote count: %v", err)
	}
	f, e := serveFixture(t, http.StatusOK, nil, "save.json")
	for _, id := range []string{"", "abc", "-1", "0", "99999999999"} {
		if _, err := e.client.Progress(t.Context(), secretToken, id); !errors.Is(err, trackers.ErrNoSuchMedia) {
			t.Errorf("media id %q: %v", id, err)
		}
	}
	for _, w := range []trackers.Write{{Progress: -1, Status: trackers.StatusCurrent}, {Progress: trackers.MaxProgress + 1, Status: trackers.StatusCurrent}, {Progress: 3}} {
		if _, err := e.client.Save(t.Context(), secretToken, "1", w); err == nil {
			t.Errorf("write %+v sent", w)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("%d requests sent for refused input", n)
	}
}

// TestTokenRefused: AniList's HTTP 400 "Invalid token", a 401, and the
// stand-in's of both, are ErrTokenRefused for every call with a token.
func TestTokenRefused(t *testing.T) {
	t.Parallel()
	_, e := serveFixture(t, http.StatusBadRequest, nil, "invalid_token.json")
	if _, err := e.client.Progress(t.Context(), secretToken, "1"); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("400 Invalid token: %v", err)
	}
	_, e = serveFixture(t, http.StatusUnauthorized, nil, `{"errors":[{"message":"Unauthorized.","status":401}],"data":null}`)
	if _, err := e.client.Viewer(t.Context(), secretToken); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("401: %v", err)
	}
	if e.rec.count(trackers.KindViewer, trackers.ResultTokenRefused) != 1 {
		t.Fatalf("recorded %v", e.rec.seen)
	}

	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("reader")
	s.AddToken(secretToken, "reader")
	if _, err := e.client.Viewer(t.Context(), secretToken); err != nil {
		t.Fatalf("good token: %v", err)
	}
	if _, err := e.client.Progress(t.Context(), "not-a-token", "1"); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("stand-in, unknown token: %v", err)
	}
	s.Expire(secretToken)
	w := trackers.Write{Progress: 3, Status: trackers.StatusCurrent}
	if _, err := e.client.Save(t.Context(), secretToken, "1", w); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("stand-in, expired token: %v", err)
	}
	if _, err := e.client.Save(t.Context(), "", "1", w); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("no token: %v", err)
	}
}
