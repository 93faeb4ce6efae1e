package lanes_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
)

// TestObserveReadSeesEveryRead: the /metrics hook hears each finished read
// with its Site, outcome and Lane time.
func TestObserveReadSeesEveryRead(t *testing.T) {
	t.Parallel()
	type seen struct {
		site    string
		outcome sites.Outcome
		took    time.Duration
	}
	var mu sync.Mutex
	var got []seen
	e := newEnv(t, func(c *lanes.Config) {
		c.ObserveRead = func(site string, o sites.Outcome, took time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, seen{site, o, took})
		}
	}, siteSpec{name: "s", gap: time.Second})
	e.seed(t, "s", 2, t0.Add(-time.Hour))
	e.ad["s"].setOutcome("2", sites.NoChapter)
	e.ad["s"].onRead = func(ctx context.Context, _ string) { _ = e.clock.Sleep(ctx, 3*time.Second) }
	if res, _ := e.runPass(t, "s"); res.Checked != 2 {
		t.Fatalf("pass checked %d, want 2", res.Checked)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []seen{{"s", sites.OK, 3 * time.Second}, {"s", sites.NoChapter, 3 * time.Second}}
	if len(got) != len(want) {
		t.Fatalf("observed %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("read %d observed %v, want %v", i, got[i], want[i])
		}
	}
}
