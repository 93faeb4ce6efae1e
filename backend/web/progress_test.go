package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"mangabookmark/backend/store/storetest"
)

// A page script forged a read: the library marks the bookmark it created
// "added from a read" (one click removes it) and the Reader sets Progress
// back by hand.
func TestLibraryMarksReadBookmarksAndCorrectsProgress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	storetest.SetBookmarks(ctx, t, f.st, storetest.BookmarkSet{ReaderID: 2, IDs: []string{"40"}, AddedBy: "read"})
	c := f.login(t, f.readerToken)
	body := f.get(t, c, "/").body
	if n := strings.Count(body, ">from a read<"); n != 1 {
		t.Fatalf(`"from a read" shown %d times, want once (for mangapill/40)`, n)
	}
	i := strings.Index(body, `data-series-id="40"`)
	if i < 0 || !strings.Contains(body[i:], ">from a read<") || !strings.Contains(body[i:], `/library/mangapill/40/remove`) {
		t.Fatal("the read-added bookmark has no mark or no remove button")
	}
	tok := f.csrf(t, c, "/")
	for _, n := range []string{"3", "15.5"} { // lower, then higher than 8
		a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {n}})
		if a.code != http.StatusSeeOther {
			t.Fatalf("set progress %s: %d %s", n, a.code, a.body)
		}
		if p, err := f.st.GetProgress(ctx, 2, "mangapill", "2"); err != nil || p.Number != n {
			t.Fatalf("progress after setting %s: %+v %v", n, p, err)
		}
	}
	if a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {"<x>"}}); a.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad number: %d", a.code)
	}
	if a := f.postForm(t, c, "/library/mangapill/999/progress", url.Values{"csrf": {tok}, "number": {"1"}}); a.code != http.StatusNotFound {
		t.Fatalf("no such bookmark: %d", a.code)
	}
	if a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"number": {"1"}}); a.code != http.StatusForbidden {
		t.Fatalf("without the CSRF field: %d", a.code)
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); p.Number != "15.5" {
		t.Fatalf("a refused form changed Progress to %s", p.Number)
	}
}
