package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/web"
	"mangabookmark/client"
)

var laneTag = regexp.MustCompile(`<article class="lane card" data-site="([^"]+)" data-state="([^"]+)"`)

// apiLanes is GET /api/admin/lanes with the Owner's token.
func (f *fixture) apiLanes(t *testing.T) []client.Lane {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/api/admin/lanes", nil)
	req.Header.Set("Authorization", "Bearer "+f.ownerToken)
	a := f.do(t, http.DefaultClient, req)
	var out client.LanesResponse
	if err := json.Unmarshal([]byte(a.body), &out); err != nil || a.code != 200 {
		t.Fatalf("api lanes: %d %v", a.code, err)
	}
	return out.Lanes
}

func TestAdminShowsTheAPIsLanes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	a := f.get(t, owner, "/admin")
	if a.code != http.StatusOK {
		t.Fatalf("/admin: %d", a.code)
	}
	var got []string
	for _, m := range laneTag.FindAllStringSubmatch(a.body, -1) {
		got = append(got, m[1]+"="+m[2])
	}
	var want []string
	for _, l := range f.apiLanes(t) {
		want = append(want, l.Site+"="+l.State)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(got) != 6 {
		t.Fatalf("page lanes %v, API lanes %v", got, want)
	}
	for _, s := range []string{`href="/admin/lanes/weebcentral">adapter-broken · weebcentral`, `href="/admin">sidecar-down`, "site migration", "Pause this Lane", "Resume"} {
		if !strings.Contains(a.body, s) {
			t.Errorf("/admin lacks %q", s)
		}
	}
	if strings.Contains(a.body, "badge new") || strings.Contains(a.body, "ember") {
		t.Error("the admin page uses the New Chapter ember")
	}
	wc, err := f.pages.Admin.WorkCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`%d links: %d by ids, %d by Readers`, wc.Links, wc.ByID, wc.ByReaders); !strings.Contains(a.body, want) ||
		!strings.Contains(a.body, fmt.Sprintf(`data-works="%d"`, wc.Works)) {
		t.Errorf("/admin lacks the Works' counts %q", want)
	}
}

func TestLanePage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	a := f.get(t, owner, "/admin/lanes/weebcentral")
	if a.code != http.StatusOK {
		t.Fatalf("lane page: %d", a.code)
	}
	if n := strings.Count(a.body, `<rect class="bar`); n != 30 {
		t.Errorf("chart has %d bars, want the 30 seeded passes", n)
	}
	if n := strings.Count(a.body, `/force"`); n != 6 {
		t.Errorf("%d Force buttons, want the 6 failing Series", n)
	}
	for _, s := range []string{`<svg viewBox="0 0 600 120" role="img"`, `data-site="weebcentral" data-state="running"`, "no_chapter", "<th scope=\"col\">Started</th>"} {
		if !strings.Contains(a.body, s) {
			t.Errorf("lane page lacks %q", s)
		}
	}
	if a := f.get(t, owner, "/admin/lanes/nosuch"); a.code != http.StatusNotFound {
		t.Fatalf("unknown Site: %d", a.code)
	}
}

func TestFailingPageFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	row := regexp.MustCompile(`<tr data-site="([^"]+)" data-series-id="([^"]+)"`)
	if n := len(row.FindAllString(f.get(t, owner, "/admin/failing").body, -1)); n != 11 {
		t.Fatalf("unfiltered: %d rows, want 11", n)
	}
	a := f.get(t, owner, "/admin/failing?site=comix&outcome=unfetchable")
	if m := row.FindAllStringSubmatch(a.body, -1); len(m) != 2 || m[0][1] != "comix" {
		t.Fatalf("filtered: %v", m)
	}
	for _, q := range []string{"?site=nosuch", "?outcome=bogus"} {
		if a := f.get(t, owner, "/admin/failing"+q); a.code != http.StatusBadRequest {
			t.Errorf("bad filter %s: %d", q, a.code)
		}
	}
}

func TestReaderSessionGets403OnAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	reader := f.login(t, f.readerToken)
	tok := f.csrf(t, reader, "/")
	for _, p := range []string{"/admin", "/admin/lanes/comix", "/admin/failing"} {
		if a := f.get(t, reader, p); a.code != http.StatusForbidden {
			t.Errorf("GET %s as a Reader: %d", p, a.code)
		}
	}
	for _, p := range []string{"/admin/series/comix/1/force", "/admin/lanes/comix/pause", "/admin/lanes/mangadex/resume"} {
		if a := f.postForm(t, reader, p, url.Values{"csrf": {tok}, "for": {"60"}}); a.code != http.StatusForbidden {
			t.Errorf("POST %s as a Reader: %d", p, a.code)
		}
	}
	l := f.apiLanes(t)
	if l[1].State != client.StateRefusing || l[2].State != client.StatePaused {
		t.Fatalf("a Reader's act changed the Lanes: %+v", l)
	}
}

func TestOwnerActs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	owner := f.login(t, f.ownerToken)
	tok := f.csrf(t, owner, "/admin")
	a := f.postForm(t, owner, "/admin/series/weebcentral/3/force", url.Values{"csrf": {tok}, "confirm": {"yes"}, "back": {"/admin/failing?site=weebcentral"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/admin/failing?site=weebcentral" {
		t.Fatalf("force: %d %q", a.code, a.header.Get("Location"))
	}
	var forced *time.Time
	_ = f.st.Pool().QueryRow(ctx, `SELECT force_poll_at FROM series WHERE site = 'weebcentral' AND series_id = '3'`).Scan(&forced)
	if forced == nil || strings.Join(f.lanes.woken(), ",") != "weebcentral" {
		t.Fatalf("force: force_poll_at %v, wakes %v", forced, f.lanes.woken())
	}
	if a := f.postForm(t, owner, "/admin/series/weebcentral/999/force", url.Values{"csrf": {tok}, "confirm": {"yes"}}); a.code != http.StatusNotFound {
		t.Fatalf("force of an unknown Series: %d", a.code)
	}
	a = f.postForm(t, owner, "/admin/series/comix/1/force", url.Values{"csrf": {tok}, "confirm": {"yes"}, "back": {"https://evil.example/"}})
	if a.header.Get("Location") != "/admin/lanes/comix" {
		t.Fatalf("an outside back= was followed: %q", a.header.Get("Location"))
	}
	a = f.postForm(t, owner, "/admin/lanes/mangapill/pause", url.Values{"csrf": {tok}, "for": {"3600"}, "reason": {"site moving"}, "back": {"/admin"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/admin" {
		t.Fatalf("pause: %d %s", a.code, a.body)
	}
	l := f.apiLanes(t)[4]
	if l.State != client.StatePaused || l.PauseReason != "site moving" || !l.PausedUntil.Equal(f.clock.Now().Add(time.Hour)) {
		t.Fatalf("after pause: %+v", l)
	}
	for _, bad := range []string{"0", "-5", "soon", "", "9999999999"} {
		if a := f.postForm(t, owner, "/admin/lanes/kagane/pause", url.Values{"csrf": {tok}, "for": {bad}}); a.code != http.StatusBadRequest {
			t.Errorf("pause for %q: %d", bad, a.code)
		}
	}
	if f.apiLanes(t)[0].State == client.StatePaused {
		t.Fatal("a refused pause paused the Lane")
	}
	// The admin rules word a refusal once: the page shows their reason.
	long := strings.Repeat("x", admin.MaxPauseReason+1)
	if a := f.postForm(t, owner, "/admin/lanes/kagane/pause", url.Values{"csrf": {tok}, "for": {"60"}, "reason": {long}}); a.code != http.StatusBadRequest ||
		!strings.Contains(a.body, "longer than 500") {
		t.Errorf("a too long reason: %d, page lacks the rule's reason:\n%s", a.code, a.body)
	}
	// A day reads as mbctl reads it.
	if a := f.postForm(t, owner, "/admin/lanes/comix/pause", url.Values{"csrf": {tok}, "for": {"1d"}}); a.code != http.StatusSeeOther {
		t.Fatalf("pause for 1d: %d %s", a.code, a.body)
	}
	if l := f.apiLanes(t)[1]; !l.PausedUntil.Equal(f.clock.Now().Add(24 * time.Hour)) {
		t.Fatalf("pause for 1d: until %v", l.PausedUntil)
	}
	a = f.postForm(t, owner, "/admin/lanes/mangapill/resume", url.Values{"csrf": {tok}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/admin/lanes/mangapill" {
		t.Fatalf("resume: %d %q", a.code, a.header.Get("Location"))
	}
	if l := f.apiLanes(t)[4]; l.State == client.StatePaused || l.PausedUntil != nil {
		t.Fatalf("after resume: %+v", l)
	}
	if a := f.postForm(t, owner, "/admin/lanes/nosuch/resume", url.Values{"csrf": {tok}}); a.code != http.StatusNotFound {
		t.Fatalf("resume of an unknown Lane: %d", a.code)
	}
}

// passAdmin is the real Admin with a pass in flight on one Lane, as the
// Lanes report it (client.Lane.Pass).
type passAdmin struct {
	web.Admin
	site string
	pass client.LivePass
	seen time.Time
}

func (a passAdmin) LaneViews(ctx context.Context) ([]client.Lane, error) {
	lanes, err := a.Admin.LaneViews(ctx)
	for i := range lanes {
		if lanes[i].Site == a.site {
			p := a.pass
			lanes[i].Pass, lanes[i].LastSeenAt = &p, &a.seen
		}
	}
	return lanes, err
}

func TestAdminShowsThePassInFlight(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	started := f.clock.Now().Add(-3 * time.Minute)
	f.pages.Admin = passAdmin{Admin: f.pages.Admin, site: "weebcentral",
		pass: client.LivePass{StartedAt: started, Due: 40, Checked: 12}, seen: f.clock.Now().Add(-5 * time.Second)}
	a := f.get(t, f.login(t, f.ownerToken), "/admin")
	_, card, ok := strings.Cut(a.body, `data-site="weebcentral"`)
	if !ok {
		t.Fatalf("no weebcentral card:\n%s", a.body)
	}
	card, _, ok = strings.Cut(card, "</article>")
	if !ok {
		t.Fatalf("weebcentral's card does not end:\n%s", card)
	}
	for _, want := range []string{`checking 12 of 40, since <time datetime="2026-11-30T11:57:00Z" title="2026-11-30 11:57 UTC">3 min ago</time>`,
		`Alive</dt><dd><time datetime="2026-11-30T11:59:55Z" title="2026-11-30 11:59 UTC">just now</time>`} {
		if !strings.Contains(card, want) {
			t.Errorf("weebcentral's card lacks %q:\n%s", want, card)
		}
	}
	if n := strings.Count(a.body, "checking 12 of 40"); n != 1 {
		t.Errorf("the pass shows %d times, want on its own Lane only", n)
	}
}

var stateSpan = regexp.MustCompile(`<span class="state ([a-z_]+)( fault)?">([a-z_]+)</span>`)

// The Lane cards paint a state as a fault exactly when client.IsFault
// says so: the fault set has one owner, the pages keep no copy.
func TestLaneCardsPaintTheFaultSet(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	a := f.get(t, f.login(t, f.ownerToken), "/admin")
	spans := stateSpan.FindAllStringSubmatch(a.body, -1)
	if len(spans) != 6 {
		t.Fatalf("%d state words on /admin, want one per Lane:\n%s", len(spans), a.body)
	}
	faults := 0
	for _, m := range spans {
		if m[1] != m[3] || (m[2] != "") != client.IsFault(m[1]) {
			t.Errorf("state %q painted fault=%v, want %v", m[1], m[2] != "", client.IsFault(m[1]))
		}
		if m[2] != "" {
			faults++
		}
	}
	if faults == 0 || faults == len(spans) {
		t.Errorf("%d of %d Lanes painted as faults: the seeded world has both kinds", faults, len(spans))
	}
}
