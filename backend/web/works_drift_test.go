package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
)

// driftWork is seedWork with mangadex/w1 drifted: its Latest 20 stands 11
// above mangapill/2's 9 (more than the drift margin), drifted since two
// hours. It returns the Work page's path.
func driftWork(t testing.TB, f *fixture) string {
	t.Helper()
	ctx := context.Background()
	wk := seedWork(t, f)
	if _, err := f.st.Pool().Exec(ctx, `UPDATE series SET latest_number = 20, max_number = 20 WHERE site = 'mangadex' AND series_id = 'w1'`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Pool().Exec(ctx, `UPDATE work_members SET drift_since = $1 WHERE site = 'mangadex' AND series_id = 'w1'`,
		admintest.Now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	return "/works/" + strconv.FormatInt(wk, 10)
}

// memberBlock is one member's block of a Work page.
func memberBlock(body, site string) string {
	_, b, ok := strings.Cut(body, `<li class="member" data-site="`+site+`"`)
	if !ok {
		return ""
	}
	b, _, _ = strings.Cut(b, "</li>")
	return b
}

// A drifted member's advice names the offset to set, with its sign, and
// the member, as a one-click form; the State is words, not the Lane
// pill; once the Reader sets that offset the advice and the word go.
func TestWorkPageDriftAdviceNamesTheOffset(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	page := driftWork(t, f)
	c := f.login(t, f.readerToken)
	body := f.get(t, c, page).body
	md, mp := memberBlock(body, "mangadex"), memberBlock(body, "mangapill")
	for _, want := range []string{"numbers drifted 2 hours ago", "Latest is chapter 20, 11 above the other members' 9",
		"set offset <strong>−11</strong> on mangadex/w1",
		`<input type="hidden" name="offset" value="-11"><button class="primary" type="submit">Set offset −11 on mangadex/w1</button>`} {
		if !strings.Contains(md, want) {
			t.Errorf("the drifted member lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(mp, `<dd class="member-state">reading fine</dd>`) || strings.Contains(mp, "drift-advice") {
		t.Errorf("the member in step says otherwise:\n%s", mp)
	}
	if strings.Contains(md+mp, `class="state`) {
		t.Error("a member's State is drawn with the Lane-state pill's class")
	}
	tok := f.csrf(t, c, page)
	a := f.postForm(t, c, page+"/members/mangadex/w1/offset", url.Values{"csrf": {tok}, "offset": {"-11"}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("the advice's act: %d", a.code)
	}
	body = f.get(t, c, page).body
	if md := memberBlock(body, "mangadex"); strings.Contains(md, "drift-advice") || strings.Contains(md, "drifted") ||
		!strings.Contains(md, `<dd class="member-state">reading fine</dd>`) || !strings.Contains(md, `name="offset" inputmode="decimal" size="6" value="-11"`) {
		t.Fatalf("after the offset the advice stays:\n%s", md)
	}
}

// No advice where the Reader's numbers do not drift: a member marked
// drifted by the shared numbers whose Reader's own offset already levels
// it, or one within the margin; a failing member does not count as the
// others' Latest.
func TestWorkPageDriftAdviceOnlyWhileDrifting(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	page := driftWork(t, f)
	c := f.login(t, f.readerToken)
	if _, err := f.st.Pool().Exec(ctx, `UPDATE series SET latest_number = 13 WHERE site = 'mangadex' AND series_id = 'w1'`); err != nil {
		t.Fatal(err)
	}
	if md := memberBlock(f.get(t, c, page).body, "mangadex"); strings.Contains(md, "drift-advice") || strings.Contains(md, "drifted") {
		t.Errorf("13 against 9 (within the margin) is advised:\n%s", md)
	}
	// Up by 8 and the other member failing for two days: nothing to
	// measure against, so no advice.
	if _, err := f.st.Pool().Exec(ctx, `UPDATE series SET latest_number = 17 WHERE site = 'mangadex' AND series_id = 'w1'`); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(memberBlock(f.get(t, c, page).body, "mangadex"), "set offset <strong>−8</strong> on mangadex/w1") {
		t.Fatal("17 against 9 is not advised −8")
	}
	if _, err := f.st.Pool().Exec(ctx, `INSERT INTO poll_failures (site, series_id, outcome, failing_since) VALUES ('mangapill', '2', 'not_found', $1)`,
		admintest.Now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if md := memberBlock(f.get(t, c, page).body, "mangadex"); strings.Contains(md, "drift-advice") {
		t.Errorf("advice against a failing member:\n%s", md)
	}
}
