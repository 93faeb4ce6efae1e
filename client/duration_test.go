package client_test

import (
	"testing"
	"time"

	"mangabookmark/client"
)

func TestParseDuration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want time.Duration
	}{{"90m", 90 * time.Minute}, {"2h30m", 150 * time.Minute}, {"1d", 24 * time.Hour},
		{"1d12h", 36 * time.Hour}, {" 45s ", 45 * time.Second}} { // spaces around are trimmed
		if got, err := client.ParseDuration(c.in); err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "0s", "-1h", "soon", "d", "1x", "500ms", "xd"} {
		if _, err := client.ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) accepted", in)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		-time.Hour: "0s", 0: "0s", 45 * time.Second: "45s", 12*time.Minute + 30*time.Second: "12m",
		2*time.Hour + 13*time.Minute: "2h13m", 5 * time.Hour: "5h", 3 * 24 * time.Hour: "3d",
		3*24*time.Hour + 4*time.Hour + 59*time.Minute: "3d4h", 400 * 24 * time.Hour: "400d",
	} {
		if got := client.FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// The one writer and the one reader agree: what FormatDuration writes,
// ParseDuration reads back as d cut to the units shown.
func TestFormatDurationReadsBack(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	for _, d := range []time.Duration{time.Second, 59 * time.Second, time.Minute, 90 * time.Minute, 23*time.Hour + 59*time.Minute,
		day, day + time.Hour, 36*day + 23*time.Hour + 59*time.Minute, 366 * day} {
		shown := client.FormatDuration(d)
		got, err := client.ParseDuration(shown)
		cut := d.Truncate(time.Second)
		switch {
		case d >= day:
			cut = d.Truncate(time.Hour)
		case d >= time.Hour:
			cut = d.Truncate(time.Minute)
		case d >= time.Minute:
			cut = d.Truncate(time.Minute)
		}
		if err != nil || got != cut {
			t.Errorf("ParseDuration(FormatDuration(%v) = %q) = %v, %v; want %v", d, shown, got, err, cut)
		}
	}
}
