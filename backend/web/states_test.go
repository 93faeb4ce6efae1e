package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Series page sets the reading state (CSRF-guarded, 400 for a value
// not of the six, 404 for a bookmark the Reader does not hold), and the
// library filters and sorts by it.
func TestSeriesPageStateControlAndLibraryFilter(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://mb.example")
	c := f.login(t, f.readerToken)
	sp := f.get(t, c, "/series/mangapill/2")
	if !strings.Contains(sp.body, `action="/library/mangapill/2/state"`) || !strings.Contains(sp.body, `<option value="reading" selected>`) {
		t.Fatalf("no state control on the Series page:\n%s", sp.body)
	}
	csrf := f.csrf(t, c, "/series/mangapill/2")
	a := f.postForm(t, c, "/library/mangapill/2/state", url.Values{"csrf": {csrf}, "state": {"on_hold"}, "back": {"/series/mangapill/2"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/series/mangapill/2" {
		t.Fatalf("set state: %d %q %s", a.code, a.header.Get("Location"), a.body)
	}
	var state string
	if err := f.st.Pool().QueryRow(context.Background(), `SELECT state FROM bookmarks
		WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '2'`).Scan(&state); err != nil || state != "on_hold" {
		t.Fatalf("stored %q (%v)", state, err)
	}
	if !strings.Contains(f.get(t, c, "/series/mangapill/2").body, `<option value="on_hold" selected>on hold</option>`) {
		t.Fatal("the Series page does not show the saved state")
	}
	for _, bad := range []string{"paused", "", "<b>"} {
		if a := f.postForm(t, c, "/library/mangapill/2/state", url.Values{"csrf": {csrf}, "state": {bad}}); a.code != http.StatusBadRequest {
			t.Errorf("state %q: %d", bad, a.code)
		}
	}
	if a := f.postForm(t, c, "/library/mangapill/nope/state", url.Values{"csrf": {csrf}, "state": {"plan"}}); a.code != http.StatusNotFound {
		t.Errorf("unknown bookmark: %d", a.code)
	}
	if a := f.postForm(t, c, "/library/mangapill/2/state", url.Values{"state": {"plan"}}); a.code != http.StatusForbidden {
		t.Errorf("no csrf: %d", a.code)
	}
	lib := f.get(t, c, "/?state=on_hold")
	if !strings.Contains(lib.body, `<option value="on_hold" selected>`) || !strings.Contains(lib.body, `/series/mangapill/2`) {
		t.Fatalf("the on-hold filter does not show the card:\n%s", lib.body)
	}
	if lib := f.get(t, c, "/?state=dropped"); strings.Contains(lib.body, `/series/mangapill/2"`) {
		t.Fatal("the dropped filter shows an on-hold card")
	}
	if lib := f.get(t, c, "/?sort=state"); !strings.Contains(lib.body, `<option value="state" selected>`) {
		t.Fatal("the state sort is not kept")
	}
}

// The Work page sets the Reader's state on every member they bookmark,
// with a flash; a value not of the six is 400 and saves nothing.
func TestWorkPageStateControl(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wk := seedWork(t, f)
	c := f.login(t, f.readerToken)
	page := "/works/" + strconv.FormatInt(wk, 10)
	if b := f.get(t, c, page).body; !strings.Contains(b, `action="`+page+`/state"`) || !strings.Contains(b, `<option value="reading" selected>`) {
		t.Fatalf("no state control on the Work page:\n%s", b)
	}
	tok := f.csrf(t, c, page)
	if a := f.postForm(t, c, page+"/state", url.Values{"csrf": {tok}, "state": {"paused"}}); a.code != http.StatusBadRequest {
		t.Fatalf("paused: %d", a.code)
	}
	a := f.postForm(t, c, page+"/state", url.Values{"csrf": {tok}, "state": {"dropped"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != page+"?done=state" {
		t.Fatalf("set state: %d %q", a.code, a.header.Get("Location"))
	}
	w, err := f.st.ReaderWork(context.Background(), 2, wk, time.Now())
	if err != nil || w.State != "dropped" {
		t.Fatalf("the Work's state %q (%v), want dropped", w.State, err)
	}
	if b := f.get(t, c, page+"?done=state").body; !strings.Contains(b, "Reading state saved") || !strings.Contains(b, `<option value="dropped" selected>`) {
		t.Fatal("the Work page does not show the saved state and its flash")
	}
}
