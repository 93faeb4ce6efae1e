package admin

import (
	"testing"
	"time"

	"mangabookmark/backend/sites"
)

func TestEffectiveGap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		gap    time.Duration
		series int
		want   time.Duration
	}{
		{10 * time.Second, 0, 10 * time.Second},
		{10 * time.Second, 100, 10 * time.Second},
		{10 * time.Second, 720, 5 * time.Second},
		{10 * time.Second, 1_000_000, time.Second},
		{500 * time.Millisecond, 1, time.Second},
	}
	for _, c := range cases {
		if got := effectiveGap(&sites.Site{Gap: c.gap}, c.series); got != c.want {
			t.Errorf("effectiveGap(%v, %d) = %v, want %v", c.gap, c.series, got, c.want)
		}
	}
}

func TestBehindBy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	since := now.Add(-2 * time.Hour)
	future := now.Add(time.Minute)
	if got := behindBy(now, &since); got != 2*time.Hour {
		t.Errorf("behind = %v, want 2h", got)
	}
	if got := behindBy(now, &future); got != 0 {
		t.Errorf("behind of a Series due in the future = %v, want 0", got)
	}
	if got := behindBy(now, nil); got != 0 {
		t.Errorf("behind with nothing due = %v, want 0", got)
	}
}
