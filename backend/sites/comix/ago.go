package comix

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// agoRe is the Site's relative time: "9h ago", "2m ago" (minutes),
// "1mo ago", "3 days ago", "just now".
var agoRe = regexp.MustCompile(`^([0-9]{1,4}) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mos|months?|y|yrs?|years?) ago$`)

// ago turns a relative time into an instant before now, or the zero time
// when s is empty or not one. The result is rounded down to the hour
// (minutes and hours) or the day (days and longer), so the same chapter
// read an hour later gives the same instant and a read that changes
// nothing writes nothing.
func ago(s string, now time.Time) time.Time {
	s = strings.ToLower(strings.TrimSpace(s))
	now = now.UTC()
	if s == "just now" || s == "now" {
		return now.Truncate(time.Hour)
	}
	g := agoRe.FindStringSubmatch(s)
	if g == nil {
		return time.Time{}
	}
	n, _ := strconv.Atoi(g[1])
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	switch u := g[2]; {
	case u[0] == 's':
		return now.Add(-time.Duration(n) * time.Second).Truncate(time.Hour)
	case u == "m" || strings.HasPrefix(u, "min"):
		return now.Add(-time.Duration(n) * time.Minute).Truncate(time.Hour)
	case u[0] == 'h':
		return now.Add(-time.Duration(n) * time.Hour).Truncate(time.Hour)
	case u[0] == 'd':
		return day(now.AddDate(0, 0, -n))
	case u[0] == 'w':
		return day(now.AddDate(0, 0, -7*n))
	case strings.HasPrefix(u, "mo"):
		return day(now.AddDate(0, -n, 0))
	default: // years
		return day(now.AddDate(-n, 0, 0))
	}
}
