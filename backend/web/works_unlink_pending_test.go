package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"mangabookmark/backend/admin/admintest"
)

// TestWorkPageUnlinksPendingMember: the Work page's "Not this story" on a
// member the Reader holds by their own unconfirmed hand link removes that
// link (303 back to the Work, as for a shared member); it answered 404.
func TestWorkPageUnlinksPendingMember(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	ctx := context.Background()
	c := f.login(t, f.readerToken)
	page := "/works/" + strconv.FormatInt(wk, 10)
	tok := f.csrf(t, c, page)
	post := func(path string) answer {
		t.Helper()
		return f.postForm(t, c, path, url.Values{"csrf": {tok}})
	}
	// Same story, by hand: comix/look joins the Work for this Reader only.
	if a := f.postForm(t, c, "/series/mangapill/2/link", url.Values{"csrf": {tok}, "site": {"comix"}, "series_id": {"look"}}); a.code != http.StatusSeeOther {
		t.Fatalf("same story: %d", a.code)
	}
	if w, err := f.st.ReaderWork(ctx, 2, wk, admintest.Now); err != nil || len(w.Members) != 3 {
		t.Fatalf("after same story: %+v %v, want 3 members", w, err)
	}
	if a := post(page + "/members/comix/look/unlink"); a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=unlink" {
		t.Fatalf("unlink the pending member: %d %q, want 303 to the Work", a.code, a.header.Get("Location"))
	}
	w, err := f.st.ReaderWork(ctx, 2, wk, admintest.Now)
	if err != nil || len(w.Members) != 2 {
		t.Fatalf("after the unlink: %+v %v, want the 2 shared members", w, err)
	}
	for _, m := range w.Members {
		if m.Pending {
			t.Fatalf("a pending member is left: %+v", m)
		}
	}
	if a := post(page + "/members/comix/look/unlink"); a.code != http.StatusNotFound {
		t.Errorf("unlinking it twice: %d, want 404", a.code)
	}
}
