package web

import (
	"html/template"
	"strconv"
	"time"

	"mangabookmark/backend/store"
)

// The Owner's pages say times relative to now ("4 min ago", "in 2 h"),
// each a <time> whose datetime and title carry the UTC time to the minute,
// so hovering one shows it and a script or test can read it.

// relTime is t as a <time> element: relative words, the UTC time on hover.
func relTime(now, t time.Time) template.HTML {
	u := t.UTC()
	return template.HTML(`<time datetime="` + u.Format(time.RFC3339) + `" title="` + when(u) + `">` + //nolint:gosec // G203: digits and fixed words only
		relWords(now, t) + `</time>`)
}

// relTimeSet is relTime for a time that may be unset ("—").
func relTimeSet(now time.Time, t *time.Time) template.HTML {
	if t == nil {
		return "—"
	}
	return relTime(now, *t)
}

// relWords says how far t is from now in the largest whole unit that
// reads at a glance: "just now", "4 min ago", "3 h ago", "in 45 min",
// "2 days ago"; past 60 days the date.
func relWords(now, t time.Time) string {
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		s = strconv.Itoa(int(d/time.Minute)) + " min"
	case d < 48*time.Hour:
		s = strconv.Itoa(int(d/time.Hour)) + " h"
		if m := int(d%time.Hour) / int(time.Minute); d < 10*time.Hour && m > 0 {
			s += " " + strconv.Itoa(m) + " min"
		}
	case d < 60*24*time.Hour:
		s = plural(int(d/(24*time.Hour)), "day")
	default:
		return "on " + t.UTC().Format("2 Jan 2006")
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// passRow is one row of a Lane's passes table: a pass, or a run of
// empty passes folded into one (Folded holds them, newest first).
type passRow struct {
	store.Pass
	Folded []store.Pass
}

// First and Last are the folded run's oldest and newest starts.
func (p passRow) First() time.Time { return p.Folded[len(p.Folded)-1].StartedAt }

// Last is the folded run's newest start.
func (p passRow) Last() time.Time { return p.Folded[0].StartedAt }

// emptyPass is a pass that had nothing to do: nothing due, nothing read,
// nothing hinted, not skipped ("0 of 0").
func emptyPass(p store.Pass) bool {
	return p.Due == 0 && p.Checked == 0 && p.Hinted == 0 && p.Skip == ""
}

// foldPasses folds each run of two or more empty passes into one row, so
// the table shows the passes that did something.
func foldPasses(ps []store.Pass) []passRow {
	var out []passRow
	for i := 0; i < len(ps); {
		j := i
		for j < len(ps) && emptyPass(ps[j]) {
			j++
		}
		if j-i >= 2 {
			out = append(out, passRow{Pass: ps[i], Folded: ps[i:j]})
			i = j
			continue
		}
		out = append(out, passRow{Pass: ps[i]})
		i++
	}
	return out
}
