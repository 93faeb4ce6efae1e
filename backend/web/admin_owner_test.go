package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// A Lane's passes table folds each run of empty passes (nothing due,
// nothing read) into one row that says how many and when, and keeps every
// pass that did something, its New Chapters counted.
func TestLanePageFoldsEmptyPasses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	now := f.clock.Now()
	at := func(min int) time.Time { return now.Add(-time.Duration(min) * time.Minute) }
	empty := func(min int) store.Pass {
		return store.Pass{Site: "mangadex", StartedAt: at(min), FinishedAt: at(min).Add(time.Second)}
	}
	passes := []store.Pass{empty(1), empty(2), empty(3), empty(4), empty(5),
		{Site: "mangadex", StartedAt: at(6), FinishedAt: at(6).Add(time.Minute), Due: 3, Checked: 3, OK: 3, New: 2},
		empty(7), // one alone stays a row
		{Site: "mangadex", StartedAt: at(8), FinishedAt: at(8).Add(time.Minute), Due: 1, Checked: 1, OK: 1},
		empty(9), empty(10), empty(11)}
	for _, p := range passes {
		if _, err := f.st.InsertPass(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	a := f.get(t, f.login(t, f.ownerToken), "/admin/lanes/mangadex")
	if a.code != http.StatusOK {
		t.Fatalf("lane page: %d", a.code)
	}
	_, table, _ := strings.Cut(a.body, `<h2 id="passes-h">Passes</h2>`)
	table, _, _ = strings.Cut(table, "</table>")
	folds := regexp.MustCompile(`<tr class="folded" data-folded="(\d+)"`).FindAllStringSubmatch(table, -1)
	if len(folds) < 2 || folds[0][1] != "5" || folds[1][1] != "3" {
		t.Fatalf("folded rows %v, want the runs of 5 and 3 empty passes first:\n%s", folds, table)
	}
	if !strings.Contains(table, `5 empty passes, <time datetime="`+at(5).UTC().Format(time.RFC3339)+`" title="`) ||
		!strings.Contains(table, `>5 min ago</time> to <time`) || !strings.Contains(table, ">1 min ago</time>: nothing was due") {
		t.Errorf("the fold of five does not say how many and when:\n%s", table)
	}
	// The passes that did something and the lone empty one stay rows, in
	// order: 6 min (2 new), 7 min (empty, alone), 8 min.
	rows := regexp.MustCompile(`<tr><td><time [^>]*>(\d+ min ago)</time></td><td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td>`).FindAllStringSubmatch(table, 3)
	if len(rows) != 3 || rows[0][1] != "6 min ago" || rows[0][5] != "2" || rows[1][1] != "7 min ago" || rows[1][2] != "0" || rows[2][1] != "8 min ago" {
		t.Fatalf("pass rows %v:\n%s", rows, table)
	}
	// The Lane card's last pass says its New Chapters.
	if !strings.Contains(a.body, "0 of 0 read, 0 new") {
		t.Errorf("the Lane card does not count the last pass's New Chapters")
	}
}

// The Owner's pages say times relative to now, the UTC time on hover.
func TestOwnerPagesSayTimesRelative(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	tag := regexp.MustCompile(`<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)" title="(\d{4}-\d\d-\d\d \d\d:\d\d UTC)">([^<]+)</time>`)
	words := regexp.MustCompile(`^(just now|\d+ min ago|\d+ h( \d+ min)? ago|\d+ days? ago|in \d+ min|in \d+ h( \d+ min)?|in \d+ days?|on \d+ \w+ \d{4})$`)
	for _, path := range []string{"/admin", "/admin/lanes/weebcentral", "/admin/failing"} {
		body := f.get(t, owner, path).body
		if strings.Contains(body, " UTC</td>") || strings.Contains(body, " UTC</dd>") {
			t.Errorf("%s still shows an absolute UTC time as text", path)
		}
		times := tag.FindAllStringSubmatch(body, -1)
		if len(times) < 3 {
			t.Errorf("%s has %d relative times", path, len(times))
		}
		for _, m := range times {
			at, err := time.Parse(time.RFC3339, m[1])
			if err != nil || at.Format("2006-01-02 15:04 UTC") != m[2] || !words.MatchString(m[3]) {
				t.Errorf("%s: time %q title %q says %q", path, m[1], m[2], m[3])
			}
		}
	}
}

// Force asks once: the failing tables' Force opens its question (no act),
// a POST without the answer shows the question again and acts on
// nothing, the answer with the form token forces, and without the token
// it is refused.
func TestForceAsksOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	owner := f.login(t, f.ownerToken)
	forced := func() bool {
		t.Helper()
		var at *time.Time
		if err := f.st.Pool().QueryRow(ctx, `SELECT force_poll_at FROM series WHERE site = 'weebcentral' AND series_id = '3'`).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at != nil
	}
	lane := f.get(t, owner, "/admin/lanes/weebcentral").body
	if !strings.Contains(lane, `<form method="get" action="/admin/series/weebcentral/3/force"><input type="hidden" name="back" value="/admin/lanes/weebcentral">`) {
		t.Fatalf("the failing table's Force does not open its question")
	}
	a := f.get(t, owner, "/admin/series/weebcentral/3/force?back=/admin/lanes/weebcentral")
	if a.code != http.StatusOK || !strings.Contains(a.body, "<h1>Force a read?</h1>") ||
		!strings.Contains(a.body, `<input type="hidden" name="confirm" value="yes">`) ||
		!strings.Contains(a.body, `<a href="/admin/lanes/weebcentral">No, go back</a>`) || forced() {
		t.Fatalf("the question: %d, forced %v:\n%s", a.code, forced(), a.body)
	}
	tok := f.csrf(t, owner, "/admin")
	if !strings.Contains(a.body, `name="csrf" value="`+tok+`"`) {
		t.Error("the question's form carries no form token")
	}
	a = f.postForm(t, owner, "/admin/series/weebcentral/3/force", url.Values{"csrf": {tok}, "back": {"/admin/failing"}})
	if a.code != http.StatusOK || !strings.Contains(a.body, "<h1>Force a read?</h1>") || forced() {
		t.Fatalf("a POST without the answer: %d, forced %v", a.code, forced())
	}
	if n := len(f.lanes.woken()); n != 0 {
		t.Fatalf("the question woke %d Lanes", n)
	}
	a = f.postForm(t, owner, "/admin/series/weebcentral/3/force", url.Values{"confirm": {"yes"}, "back": {"/admin/failing"}})
	if a.code != http.StatusForbidden || forced() {
		t.Fatalf("the answer without the form token: %d, forced %v", a.code, forced())
	}
	a = f.postForm(t, owner, "/admin/series/weebcentral/3/force", url.Values{"csrf": {tok}, "confirm": {"yes"}, "back": {"/admin/failing"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/admin/failing" || !forced() {
		t.Fatalf("the answer: %d %q, forced %v", a.code, a.header.Get("Location"), forced())
	}
	// A Reader gets neither the question nor the act; an outside back is not followed.
	if a := f.get(t, f.login(t, f.readerToken), "/admin/series/weebcentral/3/force"); a.code != http.StatusForbidden {
		t.Errorf("the question for a Reader: %d", a.code)
	}
	if a := f.get(t, owner, "/admin/series/weebcentral/3/force?back=//evil.example/"); strings.Contains(a.body, "evil.example") {
		t.Error("the question links to an outside back")
	}
	// A hostile id and back are shown as text, never as markup.
	a = f.get(t, owner, "/admin/series/weebcentral/%3Cscript%3Ealert(1)%3C%2Fscript%3E/force?back=/admin%22%3E%3Cscript%3Ealert(2)%3C/script%3E")
	if a.code != http.StatusOK || strings.Contains(a.body, "<script>alert") || !strings.Contains(a.body, "&lt;script&gt;alert(1)") {
		t.Errorf("a hostile id on the question: %d:\n%s", a.code, a.body)
	}
}
