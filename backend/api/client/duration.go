package client

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDuration accepts Go durations ("90m", "2h30m") and whole days as
// "d" ("1d", "1d12h"). It rejects zero, negative and sub-second durations.
// mbctl pause and the dashboard's pause prompt both read durations with it.
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
	if total < time.Second {
		return 0, fmt.Errorf("%q is not a positive duration of a second or more", s)
	}
	return total, nil
}
