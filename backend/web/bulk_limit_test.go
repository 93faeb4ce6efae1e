package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// A bulk act of more picks than a page could hold is refused whole before
// any is read: 400, and nothing marked read.
func TestBulkRefusesTooManyPicks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	before, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2")
	picks := []string{"/library/mangapill/2"}
	for i := range 200 {
		picks = append(picks, "/library/mangapill/x"+strconv.Itoa(i))
	}
	for _, do := range []string{"read", "remove"} {
		a := f.postForm(t, c, "/library/bulk", url.Values{"csrf": {tok}, "do": {do}, "pick": picks, "back": {"/"}})
		if a.code != http.StatusBadRequest {
			t.Errorf("%s of %d picks: %d, want 400", do, len(picks), a.code)
		}
	}
	if a := f.postForm(t, c, "/library/bulk", url.Values{"csrf": {tok}, "do": {"delete"}, "pick": {"/library/mangapill/2"}, "back": {"/"}}); a.code != http.StatusBadRequest {
		t.Errorf("do=delete: %d, want 400", a.code)
	}
	if after, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); after.Number != before.Number {
		t.Errorf("a refused bulk act moved Progress from %q to %q", before.Number, after.Number)
	}
}
