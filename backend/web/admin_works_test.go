package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// The Owner's Work view: a Work's shared members with the forms that set
// a shared offset and make the shared unlink, for every Reader; a Reader
// gets 403 on all of it, and a hostile value changes nothing.
func TestOwnerWorkViewSharedOffsetAndUnlink(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	wk := seedWork(t, f)
	id := strconv.FormatInt(wk, 10)
	page := "/admin/works/" + id
	member := page + "/members/mangadex/w1"
	reader := f.login(t, f.readerToken)
	rtok := f.csrf(t, reader, "/")
	if a := f.get(t, reader, page); a.code != http.StatusForbidden {
		t.Errorf("GET %s as a Reader: %d, want 403", page, a.code)
	}
	for _, p := range []string{member + "/offset", member + "/unlink"} {
		if a := f.postForm(t, reader, p, url.Values{"csrf": {rtok}, "offset": {"5"}}); a.code != http.StatusForbidden {
			t.Errorf("POST %s as a Reader: %d, want 403", p, a.code)
		}
	}

	owner := f.login(t, f.ownerToken)
	if a := f.get(t, owner, "/admin"); !strings.Contains(a.body, `action="/admin/works"`) {
		t.Error("/admin lacks the form that opens a Work")
	}
	if a := f.get(t, owner, "/admin/works?id="+id); a.code != http.StatusSeeOther || a.header.Get("Location") != page {
		t.Errorf("open Work %s: %d %q", id, a.code, a.header.Get("Location"))
	}
	for _, p := range []string{"/admin/works?id=abc", "/admin/works/0", "/admin/works/999999"} {
		if a := f.get(t, owner, p); a.code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, a.code)
		}
	}
	a := f.get(t, owner, page)
	for _, want := range []string{`action="` + member + `/offset"`, `action="` + member + `/unlink"`, `action="` + page + `/members/mangapill/2/unlink"`,
		"Set for everyone", "Unlink for everyone"} {
		if !strings.Contains(a.body, want) {
			t.Errorf("the Work view lacks %q", want)
		}
	}
	tok := f.csrf(t, owner, page)
	shared := func() string {
		t.Helper()
		var off string
		if err := f.st.Pool().QueryRow(ctx, `SELECT "offset"::text FROM work_members WHERE site = 'mangadex' AND series_id = 'w1'`).Scan(&off); err != nil {
			t.Fatal(err)
		}
		return off
	}
	for _, bad := range []string{"ten", "1e9", "100001", "NaN", ""} {
		if a := f.postForm(t, owner, member+"/offset", url.Values{"csrf": {tok}, "offset": {bad}}); a.code != http.StatusBadRequest {
			t.Errorf("offset %q: %d, want 400", bad, a.code)
		}
	}
	if got := shared(); got != "0" {
		t.Fatalf("shared offset %s after refused values, want 0", got)
	}
	if a := f.postForm(t, owner, member+"/offset", url.Values{"csrf": {tok}, "offset": {"-2"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != page {
		t.Fatalf("set the shared offset: %d %q", a.code, a.header.Get("Location"))
	}
	if got := shared(); got != "-2" {
		t.Fatalf("shared offset %s, want -2", got)
	}
	if a := f.postForm(t, owner, page+"/members/comix/nosuch/unlink", url.Values{"csrf": {tok}}); a.code != http.StatusNotFound {
		t.Errorf("unlink of no member: %d, want 404", a.code)
	}
	// The shared unlink of one of two: the Work is dissolved, back to /admin.
	if a := f.postForm(t, owner, page+"/members/mangapill/2/unlink", url.Values{"csrf": {tok}}); a.code != http.StatusSeeOther || a.header.Get("Location") != "/admin" {
		t.Fatalf("shared unlink: %d %q", a.code, a.header.Get("Location"))
	}
	if got, _ := f.st.WorkOf(ctx, "mangadex", "w1"); got != 0 {
		t.Fatalf("w1 still in Work %d after the shared unlink", got)
	}
	if n := 0; f.st.Pool().QueryRow(ctx, `SELECT count(*) FROM work_unlinks`).Scan(&n) != nil || n != 1 {
		t.Fatalf("%d shared unlinks, want 1", n)
	}
}
