package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Human renders a duration the way the console shows ages and windows:
// "45s", "12m", "2h13m", "3d", "3d4h". Negative durations render as 0s.
func Human(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%dm", h, m)
	}
	days, h := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	if h == 0 {
		return fmt.Sprintf("%dd", days)
	}
	return fmt.Sprintf("%dd%dh", days, h)
}

// Ago renders how long before now t was ("3m ago"), or "never".
func Ago(now time.Time, t *time.Time) string {
	if t == nil || t.IsZero() {
		return "never"
	}
	return Human(now.Sub(*t)) + " ago"
}

// ParseDuration accepts Go durations ("90m", "2h30m") and whole days as
// "d" ("1d", "1d12h", "2d30m"). It rejects zero and negative durations.
func ParseDuration(s string) (time.Duration, error) {
	in := strings.TrimSpace(s)
	var total time.Duration
	if i := strings.IndexByte(in, 'd'); i > 0 {
		days, err := strconv.Atoi(in[:i])
		if err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a duration such as 90m, 2h30m or 1d", s)
		}
		total = time.Duration(days) * 24 * time.Hour
		in = in[i+1:]
	}
	if in != "" {
		d, err := time.ParseDuration(in)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration such as 90m, 2h30m or 1d", s)
		}
		total += d
	}
	if total <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration", s)
	}
	return total, nil
}
