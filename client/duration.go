package client

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDuration accepts Go durations ("90m", "2h30m") and whole days as
// "d" ("1d", "1d12h"). It rejects zero, negative and sub-second durations.
// It is the one duration reader: mbctl pause, the dashboard's pause prompt
// and the web pause form all read with it.
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

// FormatDuration is the one duration writer: the two largest units, as
// the console and the pages show ages, windows and behind-bys ("45s",
// "12m", "2h13m", "3d", "3d4h"); below zero is "0s". What it writes,
// ParseDuration reads back (to the units shown).
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	day := 24 * time.Hour
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < day:
		return twoUnits(int(d/time.Hour), "h", int(d%time.Hour/time.Minute), "m")
	}
	return twoUnits(int(d/day), "d", int(d%day/time.Hour), "h")
}

// twoUnits writes "3h20m", or "3h" when the smaller unit is zero.
func twoUnits(big int, bigUnit string, small int, smallUnit string) string {
	if small == 0 {
		return strconv.Itoa(big) + bigUnit
	}
	return strconv.Itoa(big) + bigUnit + strconv.Itoa(small) + smallUnit
}
