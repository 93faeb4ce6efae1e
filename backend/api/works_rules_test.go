package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"mangabookmark/client"
)

func TestWorkPreferAPI(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	path := fmt.Sprintf("/api/works/%d/prefer", w.work)
	for _, bad := range []string{`{}`, `{"site":"comix","hold_minutes":0}`, `{"site":"comix","hold_minutes":1441}`,
		`{"site":"nowhere"}`, `{"site":"mangapill"}`} {
		if code, body := w.e.do(w.tok, "PUT", path, bad); code != http.StatusBadRequest {
			t.Errorf("PUT prefer %s: %d %s, want 400", bad, code, body)
		}
	}
	if code, _ := w.e.do(w.other, "PUT", path, `{"site":"comix"}`); code != http.StatusNotFound {
		t.Errorf("another Reader's Work: %d, want 404", code)
	}
	if code, body := w.e.do(w.tok, "PUT", path, `{"site":"comix"}`); code != http.StatusOK {
		t.Fatalf("PUT prefer: %d %s", code, body)
	}
	var wk client.Work
	if w.get(w.tok, fmt.Sprintf("/api/works/%d", w.work), &wk); wk.Prefer == nil || wk.Prefer.Site != "comix" || wk.Prefer.HoldMinutes != 60 {
		t.Fatalf("the Work's prefer %+v, want comix held 60 minutes", wk.Prefer)
	}
	if code, _ := w.e.do(w.tok, "PUT", path, `{"site":""}`); code != http.StatusOK {
		t.Fatalf("clearing: %d", code)
	}
	wk = client.Work{}
	if w.get(w.tok, fmt.Sprintf("/api/works/%d", w.work), &wk); wk.Prefer != nil {
		t.Fatalf("prefer %+v after clearing", wk.Prefer)
	}
}

func TestWorkFollowAPI(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	only := w.e.token("300000000000000003")
	if code, body := w.e.do(only, "POST", "/api/bookmarks", `{"url":"https://mangadex.org/title/00000000-0000-4000-8000-00000000000a"}`); code != http.StatusCreated {
		t.Fatalf("bookmark: %d %s", code, body)
	}
	var wk client.Work
	w.get(only, fmt.Sprintf("/api/works/%d", w.work), &wk)
	var comix client.WorkMember
	for _, m := range wk.Members {
		if m.Site == "comix" {
			comix = m
		}
	}
	if err := w.e.st.UpsertFailure(context.Background(), "mangadex", "00000000-0000-4000-8000-00000000000a", "not_found",
		w.e.now.Add(-25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if w.get(only, fmt.Sprintf("/api/works/%d", w.work), &wk); wk.Offer == nil || wk.Offer.Site != "comix" {
		t.Fatalf("offer %+v, want comix", wk.Offer)
	}
	path := fmt.Sprintf("/api/works/%d/follow", w.work)
	if code, _ := w.e.do(only, "POST", path, `{"site":"mangapill","series_id":"3"}`); code != http.StatusNotFound {
		t.Errorf("following a non-member: %d, want 404", code)
	}
	code, body := w.e.do(only, "POST", path, fmt.Sprintf(`{"site":"comix","series_id":%q}`, comix.SeriesID))
	if code != http.StatusOK {
		t.Fatalf("POST follow: %d %s", code, body)
	}
	wk = client.Work{}
	if w.get(only, fmt.Sprintf("/api/works/%d", w.work), &wk); wk.Offer != nil {
		t.Fatalf("offer %+v after following", wk.Offer)
	}
	if code, _ := w.e.do(only, "DELETE", path, ""); code != http.StatusNotFound {
		t.Errorf("declining a taken offer: %d, want 404", code)
	}
	var list struct{ Bookmarks []client.Bookmark }
	if w.get(only, "/api/bookmarks", &list); len(list.Bookmarks) != 2 {
		t.Fatalf("bookmarks after following: %+v, want the failing one and comix", list.Bookmarks)
	}
}
