package client_test

import (
	"testing"
	"time"

	"mangabookmark/backend/api/client"
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
