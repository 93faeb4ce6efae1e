package readernotice_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

func TestTwoSendersSendEachNoticeOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	const readers = 40
	for i := range readers {
		r := w.reader(fmt.Sprint(1000+i), h, 0)
		w.bookmark(r, "mangapill", "a")
		w.bookmark(r, "mangapill", "b")
	}
	w.read("mangapill", "a", "1")
	w.read("mangapill", "b", "1")
	w.read("mangapill", "a", "2")
	w.read("mangapill", "b", "2")
	// A second process: its own pool on the same database.
	other, err := store.Open(w.ctx, w.st.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	senders := []*readernotice.Service{w.svc, w.service(other), w.service(w.st), w.service(other)}
	var wg sync.WaitGroup
	for _, s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if err := s.RunOnce(w.ctx); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got := h.received()
	per := map[string]int{}
	for _, g := range got {
		b := decode(t, g.Body)
		per[b.Reader.DiscordID] += len(b.Chapters)
	}
	if len(per) != readers {
		t.Fatalf("%d Readers heard, want %d", len(per), readers)
	}
	for id, n := range per {
		if n != 2 {
			t.Errorf("Reader %s was told of %d chapters, want 2 (each once)", id, n)
		}
	}
}

func TestCrashBetweenSendAndMarkResendsOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	// Make the Digest but send nothing: a sender that dies right after
	// claiming (or after sending, before marking) leaves a lease.
	if _, err := w.st.MakeDigests(w.ctx, w.clk.Now(), 10, func(in store.DigestInput) store.DigestPlan {
		return store.DigestPlan{Outcomes: map[int]string{0: store.NoticeSent},
			Deliveries: []store.NewDelivery{{Outlet: "webhook", Payload: []byte(`{"reader":{"discord_id":"1"},"chapters":[{"number":"2"}],"late":[]}`), FirstSeen: w.clk.Now()}}}
	}); err != nil {
		t.Fatal(err)
	}
	claimed, err := w.st.ClaimDeliveries(w.ctx, w.clk.Now(), 2*time.Minute, 10, 4)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	// The crashed sender had sent it.
	if resp, err := http.Post(h.URL+"/hook/1", "application/json", strings.NewReader(string(claimed[0].Payload))); err == nil {
		resp.Body.Close()
	}
	w.run()
	if n := len(h.received()); n != 1 {
		t.Fatalf("a live sender took a leased delivery (%d calls)", n)
	}
	w.clk.Add(3 * time.Minute) // the lease ran out
	w.run()
	w.clk.Add(3 * time.Minute)
	w.run()
	if n := len(h.received()); n != 2 {
		t.Fatalf("%d calls after the crash, want exactly one resend (2)", n)
	}
}

func TestFailingOutletRetriesThenDropsAndNeverBlocksOthers(t *testing.T) {
	t.Parallel()
	stuck := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stuck:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(stuck)
	w := newWorld(t, func(c *readernotice.Config) { c.Guard.Timeout = 300 * time.Millisecond })
	bad := newHook(t)
	bad.setStatus(http.StatusInternalServerError)
	good := newHook(t)
	rb := w.reader("bad", bad, 0)
	rs := w.reader("slow", nil, 0)
	u := slow.URL + "/x"
	if _, err := w.svc.UpdateSettings(w.ctx, rs, readernotice.SettingsChange{WebhookURL: &u}); err != nil {
		t.Fatal(err)
	}
	rg := w.reader("good", good, 0)
	for _, r := range []int64{rb, rs, rg} {
		w.bookmark(r, "mangapill", "a")
	}
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	if n := len(good.received()); n != 1 {
		t.Fatalf("the good outlet got %d calls while others failed, want 1", n)
	}
	if n := len(bad.received()); n != 1 {
		t.Fatalf("bad outlet: %d attempts, want 1", n)
	}
	w.clk.Add(10 * time.Second)
	w.run()
	if n := len(bad.received()); n != 1 {
		t.Fatalf("retried inside the backoff (%d attempts)", n)
	}
	w.clk.Add(25 * time.Second)
	w.run()
	if n := len(bad.received()); n != 2 {
		t.Fatalf("not retried after the backoff (%d attempts)", n)
	}
	set, err := w.svc.Settings(w.ctx, rb)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Outlets) != 1 || set.Outlets[0].FailingSince == nil || !strings.Contains(set.Outlets[0].LastError, "HTTP 500") {
		t.Fatalf("health while failing: %+v", set.Outlets)
	}
	if strings.Contains(set.Outlets[0].LastError, bad.URL) || strings.Contains(set.Outlets[0].LastError, "/hook/") {
		t.Fatalf("the error quotes the outlet URL: %q", set.Outlets[0].LastError)
	}
	for range 30 {
		w.clk.Add(time.Hour)
		w.run()
	}
	n := len(bad.received())
	if n < 4 || n > 30 {
		t.Fatalf("%d attempts over a day, want backoff capped at one per hour", n)
	}
	if d := w.count(`SELECT count(*) FROM notice_deliveries WHERE reader_id = $1 AND dropped_at IS NOT NULL`, rb); d != 1 {
		t.Fatalf("after 24 h the delivery is not dropped (%d)", d)
	}
	w.clk.Add(time.Hour)
	w.run()
	if len(bad.received()) != n {
		t.Fatal("a dropped delivery was tried again")
	}
	set, _ = w.svc.Settings(w.ctx, rb)
	if set.Outlets[0].Dropped != 1 {
		t.Fatalf("the settings do not show the dropped Digest: %+v", set.Outlets[0])
	}
	gs, _ := w.svc.Settings(w.ctx, rg)
	if len(gs.Outlets) != 1 || gs.Outlets[0].LastOKAt == nil || gs.Outlets[0].FailingSince != nil {
		t.Fatalf("good outlet health: %+v", gs.Outlets)
	}
}

func TestStartStopSendsInTheBackground(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *readernotice.Config) { c.Interval = 50 * time.Millisecond })
	h := newHook(t)
	r := w.reader("1", h, 0)
	w.bookmark(r, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.svc.Start(context.Background())
	defer w.svc.Stop()
	w.read("mangapill", "a", "2")
	deadline := time.Now().Add(20 * time.Second)
	for len(h.received()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the background sender sent nothing in 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.svc.Stop()
}
