package web

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// A zone name from the cookie is one of the IANA database's or nothing:
// hostile values (paths, the server's Local, control bytes, huge ones)
// read UTC, and a name that loads is loaded once.
func TestReaderZoneFromCookie(t *testing.T) {
	t.Parallel()
	cases := []struct{ value, want string }{
		{"Europe/Berlin", "Europe/Berlin"},
		{"America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"},
		{"Etc/GMT+5", "Etc/GMT+5"},
		{"UTC", "UTC"},
		{"", "UTC"},
		{"Local", "UTC"},
		{"Mars/Olympus_Mons", "UTC"},
		{"../../../etc/passwd", "UTC"},
		{"/etc/localtime", "UTC"},
		{"Europe/../Europe/Berlin", "UTC"},
		{"Europe\\Berlin", "UTC"},
		{"Europe/Berlin%00", "UTC"},
		{"Europe/Berlin\x00", "UTC"},
		{"<script>alert(1)</script>", "UTC"},
		{strings.Repeat("A", 5000), "UTC"},
		{"A/B/C/D", "UTC"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Cookie", zoneCookie+"="+c.value)
		if got := readerZone(r).String(); got != c.want {
			t.Errorf("cookie %.40q: zone %q, want %q", c.value, got, c.want)
		}
	}
	if a, b := zoneOf("Asia/Tokyo"), zoneOf("Asia/Tokyo"); a == nil || a != b {
		t.Error("a zone is not loaded once")
	}
}

// The window's day is a calendar day in the Reader's zone: Wed 23:00 UTC
// and Thu 02:00 UTC are two days in UTC ("tomorrow") but one in Los
// Angeles (Wed), Kolkata and near the date line (Thu): "today". A change
// of clocks does not shift the count.
func TestWindowDaysInTheReadersZone(t *testing.T) {
	t.Parallel()
	zone := func(name string) *time.Location {
		l := zoneOf(name)
		if l == nil {
			t.Fatalf("no zone %s", name)
		}
		return l
	}
	now := time.Date(2026, 12, 2, 23, 0, 0, 0, time.UTC) // Wed 23:00 UTC
	mid := time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)  // Thu 02:00 UTC
	e := store.Expected{From: mid.Add(-24 * time.Hour), To: mid.Add(24 * time.Hour)}
	for _, c := range []struct {
		loc  *time.Location
		want string
	}{
		{time.UTC, "tomorrow ± 1 day"},
		{zone("America/Los_Angeles"), "today ± 1 day"}, // Wed 15:00, Wed 18:00
		{zone("Pacific/Kiritimati"), "today ± 1 day"},  // Thu 13:00, Thu 16:00
		{zone("Asia/Kolkata"), "today ± 1 day"},
	} {
		if got := window(now.In(c.loc), e); got != c.want {
			t.Errorf("%s: %q, want %q", c.loc, got, c.want)
		}
	}
	// Five days on, across Europe's change of clocks (29 Mar 2026).
	berlin := zone("Europe/Berlin")
	now = time.Date(2026, 3, 27, 23, 30, 0, 0, berlin) // Fri
	mid = time.Date(2026, 4, 1, 0, 30, 0, 0, berlin)   // Wed
	e = store.Expected{From: mid.Add(-12 * time.Hour), To: mid.Add(12 * time.Hour)}
	if got := window(now, e); got != "Wed ± 12 h" {
		t.Errorf("across the change of clocks: %q, want Wed ± 12 h", got)
	}
}
