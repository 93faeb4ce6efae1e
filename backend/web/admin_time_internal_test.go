package web

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

func TestRelWords(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "just now"}, {-30 * time.Second, "just now"}, {4 * time.Minute, "4 min ago"}, {-45 * time.Minute, "in 45 min"},
		{63 * time.Minute, "1 h 3 min ago"}, {2 * time.Hour, "2 h ago"}, {-(2*time.Hour + 5*time.Minute), "in 2 h 5 min"},
		{11*time.Hour + 30*time.Minute, "11 h ago"}, {36 * time.Hour, "36 h ago"}, {49 * time.Hour, "2 days ago"},
		{24 * 24 * time.Hour, "24 days ago"}, {-3 * 24 * time.Hour, "in 3 days"}, {90 * 24 * time.Hour, "on 7 Sep 2026"},
	} {
		if got := relWords(now, now.Add(-c.d)); got != c.want {
			t.Errorf("%v before now: %q, want %q", c.d, got, c.want)
		}
	}
	if got := string(relTime(now, now.Add(-4*time.Minute).In(time.FixedZone("x", 3600)))); got !=
		`<time datetime="2026-12-06T11:56:00Z" title="2026-12-06 11:56 UTC">4 min ago</time>` {
		t.Errorf("relTime: %s", got)
	}
}

// foldPasses folds runs of two or more empty passes only, keeping the
// order and every pass.
func TestFoldPasses(t *testing.T) {
	e, busy := store.Pass{}, store.Pass{Due: 1, Checked: 1}
	skipped := store.Pass{Skip: "paused"}
	hinted := store.Pass{Hinted: 2, Listing: true}
	for _, c := range []struct {
		in   []store.Pass
		want string
	}{
		{nil, ""}, {[]store.Pass{e}, "."}, {[]store.Pass{e, e}, "2"}, {[]store.Pass{busy, e, e, e, busy, e}, "b3b."},
		{[]store.Pass{e, skipped, e, hinted, e, e}, ".s.h2"},
	} {
		var b strings.Builder
		n := 0
		for _, r := range foldPasses(c.in) {
			switch {
			case r.Folded != nil:
				b.WriteString(string(rune('0' + len(r.Folded))))
				n += len(r.Folded)
			case r.Skip != "":
				b.WriteString("s")
				n++
			case r.Hinted > 0:
				b.WriteString("h")
				n++
			case r.Checked > 0:
				b.WriteString("b")
				n++
			default:
				b.WriteString(".")
				n++
			}
		}
		if b.String() != c.want || n != len(c.in) {
			t.Errorf("%v: %q (%d passes), want %q", c.in, b.String(), n, c.want)
		}
	}
}
