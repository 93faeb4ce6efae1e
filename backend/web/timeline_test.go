package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store/storetest"
)

// seedTimeLines gives the fixture's library stored times to tell (the
// clock is admintest.Now, Monday 30 Nov 2026 12:00 UTC, every Rest an
// hour): mangapill/2 read 4 minutes ago, weekly, last seen 2 days ago;
// mangapill/3 weekly until 15 days ago, nothing since, status unknown;
// weebcentral/1 the same, failing since 9 days (seedLibrary). The two
// others say they are releasing.
func seedTimeLines(t testing.TB, f *fixture) {
	t.Helper()
	ctx := context.Background()
	now := admintest.Now
	ago := func(d time.Duration) *time.Time { return storetest.At(now.Add(-d)) }
	const day = 24 * time.Hour
	var evs []storetest.ChapterEventOpts
	for i, n := range []string{"5", "6", "7"} {
		evs = append(evs,
			storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "2", Number: n, SeenAt: ago(2*day + time.Duration(2-i)*7*day)},
			storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "3", Number: n, SeenAt: ago(15*day + time.Duration(2-i)*7*day)},
			storetest.ChapterEventOpts{Site: "weebcentral", SeriesID: "1", Number: n, SeenAt: ago(15*day + time.Duration(2-i)*7*day)})
	}
	storetest.ChapterEvents(ctx, t, f.st, evs...)
	for _, id := range []string{"mangapill/2", "weebcentral/1"} {
		site, sid, _ := strings.Cut(id, "/")
		if err := f.st.RecordStatus(ctx, site, sid, "releasing", "", now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct {
		site, id string
		at       time.Duration
	}{{"mangapill", "2", 4 * time.Minute}, {"mangapill", "3", 10 * time.Minute}, {"weebcentral", "1", 30 * time.Minute}} {
		if _, ok, err := f.st.StampChecked(ctx, s.site, s.id, now.Add(-s.at)); err != nil || !ok {
			t.Fatalf("stamp %s/%s: %v %v", s.site, s.id, ok, err)
		}
	}
}

// The card tells time: when we last read the Series and the latest time
// we will read it again, from the Lane's stamp and the Site's Rest; the
// next chapter's window from its Chapter Events; and, past twice the
// interval, why nothing came.
func TestCardTellsTime(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedTimeLines(t, f)
	c := f.login(t, f.readerToken)
	b := f.get(t, c, "/").body
	for _, want := range []string{
		`<div class="time"><p>checked 4 min ago · next ≤ 56 min</p><p>releasing · around Sat ± 1 day</p></div>`,
		`<div class="time"><p>checked 10 min ago · next ≤ 50 min</p><p><span class="late">late, no sign anywhere</span></p></div>`,
		`<div class="time"><p>checked 30 min ago · next ≤ 30 min</p><p>releasing · <span class="late">late: weebcentral failing</span></p></div>`,
	} {
		if !strings.Contains(b, want) {
			t.Errorf("library lacks %q", want)
		}
	}
	if card := cardOf(b, "mangapill", "40"); strings.Contains(card, `class="time"`) {
		t.Errorf("a Series never read has a time line: %s", card)
	}
	s := f.get(t, c, "/series/mangapill/2").body
	for _, want := range []string{`<dd class="when">checked 4 min ago · next ≤ 56 min</dd>`,
		`<dt>Next chapter</dt><dd>around Sat ± 1 day</dd>`} {
		if !strings.Contains(s, want) {
			t.Errorf("the Series page lacks %q", want)
		}
	}
	if s := f.get(t, c, "/series/weebcentral/1").body; !strings.Contains(s, `<dd class="late">late: weebcentral failing since 21 Nov</dd>`) {
		t.Error("the Series page does not say since when its Site fails")
	}
}

// cardOf is the markup of the library card of site/id in body.
func cardOf(body, site, id string) string {
	i := strings.Index(body, `data-site="`+site+`" data-series-id="`+id+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(body[i:], "</li>")
	return body[i : i+j]
}

// A Reader whose browser said its zone (the tz cookie app.js sets) reads
// the card's days in it: near the date line (UTC+14) the weekly story
// expected Saturday UTC is expected Sunday, and the failing Site fails
// since a day later than in UTC. A name that is no zone reads UTC.
func TestCardDaysInTheReadersZone(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	seedTimeLines(t, f)
	c := f.login(t, f.readerToken)
	u, _ := url.Parse(f.srv.URL)
	for _, z := range []struct{ value, day, since string }{
		{"Pacific/Kiritimati", "Sun", "22 Nov"},
		{"America/Los_Angeles", "Sat", "21 Nov"},
		{"../../etc/localtime", "Sat", "21 Nov"},
	} {
		c.Jar.SetCookies(u, []*http.Cookie{{Name: "tz", Value: z.value, Path: "/"}})
		if b := f.get(t, c, "/").body; !strings.Contains(b, "releasing · around "+z.day+" ± 1 day") {
			t.Errorf("tz %s: the library lacks around %s", z.value, z.day)
		}
		if s := f.get(t, c, "/series/weebcentral/1").body; !strings.Contains(s, `late: weebcentral failing since `+z.since+`</dd>`) {
			t.Errorf("tz %s: the Series page does not say failing since %s", z.value, z.since)
		}
	}
}
