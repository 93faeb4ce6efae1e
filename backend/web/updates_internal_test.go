package web

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// Updates group by their UTC day in the order given (newest first): today
// and yesterday by name, older days by date; a day that comes back after
// another (it cannot, from the store's order) would be a heading again.
func TestUpdatesDays(t *testing.T) {
	now := time.Date(2026, 12, 6, 0, 30, 0, 0, time.UTC)
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	work := int64(7)
	us := []store.Update{
		{EventID: 5, Site: "mangapill", SeriesID: "a", StoryTitle: "A", Number: "3", SeriesNumber: "3", SeenAt: at("2026-12-06T00:10:00Z")},
		{EventID: 4, Site: "mangadex", SeriesID: "b", WorkID: &work, Number: "12", SeriesNumber: "112", ChapterTitle: "Ch. 112", SeenAt: at("2026-12-05T23:59:00+00:00")},
		// 01:00 at +02:00 is the 5th in UTC: yesterday.
		{EventID: 3, Site: "comix", SeriesID: "c", StoryTitle: "C", Number: "1", SeriesNumber: "1", Read: true, SeenAt: at("2026-12-06T01:00:00+02:00")},
		{EventID: 2, Site: "comix", SeriesID: "c", StoryTitle: "C", Number: "0.5", SeriesNumber: "0.5", SeenAt: at("2026-11-30T08:00:00Z")},
	}
	days := updatesDays(us, now)
	var got []string
	for _, d := range days {
		var rows []string
		for _, r := range d.Rows {
			rows = append(rows, r.ID+" "+r.Title+" "+r.PagePath+" #"+r.Number+" "+r.ChapterTitle)
		}
		got = append(got, d.ID+" "+d.Label+": "+strings.Join(rows, ", "))
	}
	want := []string{
		"d-2026-12-06 Today: u5 A /series/mangapill/a #3 ",
		"d-2026-12-05 Yesterday: u4 b /works/7 #12 , u3 C /series/comix/c #1 ",
		"d-2026-11-30 Mon 30 Nov 2026: u2 C /series/comix/c #0.5 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("days:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := days[1].Rows[1]; !r.Read || r.At != "2026-12-05 23:00 UTC" || r.ISO != "2026-12-05T23:00:00Z" || r.Ago != "1 hour ago" {
		t.Fatalf("row: %+v", r)
	}
}

// updatesBack keeps an Updates page's cursor and row anchor and nothing
// else.
func TestUpdatesBack(t *testing.T) {
	for back, want := range map[string]string{
		"":                                     "/updates?done=read",
		"/updates":                             "/updates?done=read",
		"/updates?before=12.3#u9":              "/updates?before=12.3&done=read#u9",
		"/updates?before=12.3&done=read#u9":    "/updates?before=12.3&done=read#u9",
		"/updates?before=x&evil=1#u9":          "/updates?done=read#u9",
		"/updates#u" + strings.Repeat("9", 30): "/updates?done=read",
		"/?page=2":                             "/updates?done=read",
		"https://evil.example/updates#u1":      "/updates?done=read",
		"//evil.example/updates":               "/updates?done=read",
	} {
		if got := updatesBack(back); got != want {
			t.Errorf("updatesBack(%q) = %q, want %q", back, got, want)
		}
	}
}

// updatesBack refuses, through safeBack, a back that only looks like the
// Updates page: escaped slashes, backslashes, control bytes, schemes and
// paths that climb out; each returns to the newest page.
func TestUpdatesBackRefusesHostile(t *testing.T) {
	for _, back := range []string{
		"/updates?before=12.3\r\nSet-Cookie: x=1#u9",
		"/updates?before=12.3\t#u9",
		"/\\evil.example/updates?before=12.3",
		"/%2F%2Fevil.example/updates?before=12.3",
		"/updates/../updates?before=12.3#u9",
		"javascript:alert(1)//updates",
		"/updates?before=12.3 #u9",
		"/updates?before=" + strings.Repeat("1", 3000) + "#u9",
	} {
		if got := updatesBack(back); got != "/updates?done=read" {
			t.Errorf("updatesBack(%.40q) = %q, want /updates?done=read", back, got)
		}
	}
}

// TestUpdatesDaysInTheReadersZone: with the Reader's zone (the tz cookie,
// readerNow), Updates group by their day there, as the library's cards
// count days: at UTC+14, 12:00 UTC on the 5th is 02:00 on the 6th, today.
func TestUpdatesDaysInTheReadersZone(t *testing.T) {
	zone := time.FixedZone("UTC+14", 14*3600)
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, zone)
	us := []store.Update{
		{EventID: 2, Site: "mangapill", SeriesID: "a", StoryTitle: "A", Number: "3", SeriesNumber: "3", SeenAt: time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)},
		{EventID: 1, Site: "mangapill", SeriesID: "a", StoryTitle: "A", Number: "2", SeriesNumber: "2", SeenAt: time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)},
	}
	days := updatesDays(us, now)
	if len(days) != 2 || days[0].Label != "Today" || days[0].ID != "d-2026-12-06" || days[1].Label != "Yesterday" {
		t.Fatalf("days %+v", days)
	}
	if utc := updatesDays(us, now.UTC()); len(utc) != 1 || utc[0].ID != "d-2026-12-05" {
		t.Fatalf("in UTC: %+v", utc)
	}
}
