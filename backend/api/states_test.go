package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// The reading-state routes: 200 with the bookmark or Work as it now reads,
// 400 naming the six for any other value (the filter too), 404 for what
// the Reader does not hold; a state set on a Work shows on its members
// and filters GET /api/bookmarks; the status and final chapter read show.
func TestReadingStateRoutes(t *testing.T) {
	t.Parallel()
	w := &whoseWorld{importEnv: newImportEnv(t)}
	w.now = time.Now().UTC()
	w.ann, w.bob = w.token("300000000000000061"), w.token("300000000000000062")
	w.bookmark(w.ann, story11)
	w.bookmark(w.ann, "https://mangadex.org/title/"+offMD)
	w.bookmark(w.ann, "https://comix.to/title/"+offComix)
	site := []store.ExternalID{{Kind: "mal", Value: "880061", Source: store.IDFromSite}}
	w.chapter("mangadex", offMD, "50", site...)
	w.chapter("comix", offComix, "50", site...)
	f := store.ReadFacts{Title: "Story 11", Number: "110", ChTitle: "Chapter 110", ChURL: "https://mangapill.example/11/110",
		Status: store.StatusCompleted, FinalChapter: "110"}
	if _, err := w.st.RecordOK(context.Background(), "mangapill", "11", f, w.now); err != nil {
		t.Fatal(err)
	}

	for _, body := range []string{`{"state":"paused"}`, `{"state":""}`, `{}`, `{"state":"READING"}`, `{"state":1}`} {
		code, b := w.do(w.ann, "PUT", "/api/bookmarks/mangapill/11/state", body)
		if body == `{"state":1}` {
			if code != http.StatusBadRequest {
				t.Errorf("%s: %d %s, want 400", body, code, b)
			}
			continue
		}
		if code != http.StatusBadRequest || !strings.Contains(string(b), "reading, rereading, plan, on_hold, completed, dropped") {
			t.Errorf("%s: %d %s, want 400 naming the six", body, code, b)
		}
	}
	if code, b := w.do(w.ann, "GET", "/api/bookmarks?state=paused", ""); code != http.StatusBadRequest || !strings.Contains(string(b), "on_hold") {
		t.Errorf("filter paused: %d %s, want 400 naming the six", code, b)
	}
	if code, b := w.do(w.bob, "PUT", "/api/bookmarks/mangapill/11/state", `{"state":"plan"}`); code != http.StatusNotFound {
		t.Errorf("Bob's state of Ann's bookmark: %d %s, want 404", code, b)
	}

	code, b := w.do(w.ann, "PUT", "/api/bookmarks/mangapill/11/state", `{"state":"on_hold"}`)
	var bm client.Bookmark
	if code != http.StatusOK || json.Unmarshal(b, &bm) != nil || bm.State != "on_hold" || bm.Status != "completed" ||
		bm.FinalChapter == nil || *bm.FinalChapter != "110" {
		t.Fatalf("PUT state: %d %s", code, b)
	}

	var works client.WorksResponse
	if code, b := w.do(w.ann, "GET", "/api/works", ""); code != http.StatusOK || json.Unmarshal(b, &works) != nil || len(works.Works) != 1 {
		t.Fatalf("works: %d %s", code, b)
	}
	wk := works.Works[0]
	if wk.State != "reading" || wk.Status != "unknown" || wk.FinalChapter != nil {
		t.Fatalf("the Work before: state %q status %q", wk.State, wk.Status)
	}
	if code, b := w.do(w.bob, "PUT", fmt.Sprintf("/api/works/%d/state", wk.ID), `{"state":"dropped"}`); code != http.StatusNotFound {
		t.Errorf("Bob's state of Ann's Work: %d %s, want 404", code, b)
	}
	code, b = w.do(w.ann, "PUT", fmt.Sprintf("/api/works/%d/state", wk.ID), `{"state":"dropped"}`)
	if code != http.StatusOK || json.Unmarshal(b, &wk) != nil || wk.State != "dropped" {
		t.Fatalf("PUT work state: %d %s", code, b)
	}
	var list struct {
		Bookmarks []client.Bookmark `json:"bookmarks"`
	}
	for state, want := range map[string]int{"dropped": 2, "on_hold": 1, "reading": 0, "": 3} {
		path := "/api/bookmarks"
		if state != "" {
			path += "?state=" + state
		}
		if code, b := w.do(w.ann, "GET", path, ""); code != http.StatusOK || json.Unmarshal(b, &list) != nil || len(list.Bookmarks) != want {
			t.Errorf("GET %s: %d, %d bookmarks, want %d", path, code, len(list.Bookmarks), want)
		}
	}
}
