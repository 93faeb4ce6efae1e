package store_test

import (
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// Two deliveries of one outlet refused at once (two sends in flight) stop
// it once: one call reports the stop and writes the notice of it, the
// other finds it stopped; the outlet's pending deliveries are dropped, and
// setting its URL again starts it.
func TestStopOutletTellsOnceUnderRace(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	rid := w.reader("1")
	now := time.Date(2026, 12, 6, 6, 0, 0, 0, time.UTC)
	for range 3 {
		storetest.Delivery(w.ctx, t, w.st, storetest.DeliveryOpts{ReaderID: rid, Outlet: "webhook", CreatedAt: &now})
	}
	ds, err := w.st.ClaimDeliveries(w.ctx, now, time.Minute, 2, 4)
	if err != nil || len(ds) != 2 {
		t.Fatalf("claimed %d: %v", len(ds), err)
	}
	tell := []store.NewDelivery{{Outlet: "ntfy", Payload: []byte(`{}`), FirstSeen: now}}
	var wg sync.WaitGroup
	stopped := make([]bool, len(ds))
	errs := make([]error, len(ds))
	for i, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stopped[i], errs[i] = w.st.StopOutlet(w.ctx, d, now, "refused: HTTP 410", tell)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || stopped[0] == stopped[1] {
		t.Fatalf("stopped %v, errors %v: want exactly one call to stop it", stopped, errs)
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE outlet = 'ntfy'`); n != 1 {
		t.Fatalf("%d notices of the stop, want 1", n)
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE outlet = 'webhook' AND dropped_at IS NULL`); n != 0 {
		t.Fatalf("%d webhook deliveries left pending", n)
	}
	h, err := w.st.ListOutletHealth(w.ctx, rid)
	if err != nil || len(h) != 1 || h[0].StoppedAt == nil || h[0].FailingSince == nil || h[0].LastError != "refused: HTTP 410" || h[0].Dropped != 3 {
		t.Fatalf("health %+v %v", h, err)
	}
	u := "https://hook.example/new"
	if _, err := w.st.PutNotify(w.ctx, rid, store.NotifyChange{WebhookURL: &u}); err != nil {
		t.Fatal(err)
	}
	if h, _ = w.st.ListOutletHealth(w.ctx, rid); h[0].StoppedAt != nil {
		t.Fatal("setting the URL again left the outlet stopped")
	}
}
