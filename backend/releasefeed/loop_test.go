package releasefeed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
)

// Start reads at once, then every Every on its clock; Stop ends the loop.
func TestTheLoopReadsAtStartThenEveryTenMinutes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, releasefeedtest.Row{ID: 1, SeriesID: muA, Chapter: "46"})
	w.follow(t, "comix", "cx-a", "45", fmt.Sprint(muA))
	ctx := context.Background()
	w.feed.Start(ctx)
	defer w.feed.Stop()
	if !w.clock.WaitSleepers(ctx, 1) {
		t.Fatal("the loop never slept")
	}
	if n := len(w.mu.Requests()); n != 1 || !w.hinted(t, "comix", "cx-a", t0) {
		t.Fatalf("%d requests at start, hinted %v", n, w.hinted(t, "comix", "cx-a", t0))
	}
	w.clock.Advance(releasefeed.DefaultEvery - time.Second)
	if n := len(w.mu.Requests()); n != 1 {
		t.Fatalf("%d requests before Every", n)
	}
	w.clock.Advance(time.Second)
	// The loop wakes, reads and sleeps again.
	for len(w.mu.Requests()) < 2 || w.clock.Sleepers() < 1 {
		if !w.clock.WaitSleepers(ctx, 1) {
			t.Fatal("the loop stopped")
		}
	}
	w.feed.Stop()
	if st := w.state(t); st.LastReadAt == nil || !st.LastReadAt.Equal(t0.Add(releasefeed.DefaultEvery)) {
		t.Fatalf("state %+v", st)
	}
}
