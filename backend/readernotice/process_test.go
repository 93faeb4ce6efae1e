package readernotice_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// senderDSN names the database a helper sender process runs against.
const senderDSN = "MB_DIGEST_SENDER_DSN"

// TestHelperSender is not a test: TestTwoProcessesSendEachNoticeOnce runs
// this binary again with senderDSN set, as a second sender process.
func TestHelperSender(t *testing.T) {
	dsn := os.Getenv(senderDSN)
	if dsn == "" {
		t.Skip("a helper process of TestTwoProcessesSendEachNoticeOnce")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := readernotice.New(readernotice.Config{Store: st, Guard: netguard.Guard{AllowNets: netguard.Loopback(), Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := svc.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTwoProcessesSendEachNoticeOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *readernotice.Config) { c.Now = time.Now })
	h := newHook(t)
	const readers = 60
	for i := range readers {
		r := w.reader(fmt.Sprint(5000+i), h, 0)
		w.bookmark(r, "mangapill", "a")
		w.bookmark(r, "mangapill", "b")
	}
	w.read("mangapill", "a", "1")
	w.read("mangapill", "b", "1")
	w.read("mangapill", "a", "2")
	w.read("mangapill", "b", "2")
	storetest.SetSeen(w.ctx, t, w.st, storetest.SeenSet{At: time.Now().Add(-time.Minute)})

	other := exec.Command(os.Args[0], "-test.run=^TestHelperSender$", "-test.count=1")
	other.Env = append(os.Environ(), senderDSN+"="+w.st.DSN())
	done := make(chan error, 1)
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- other.Wait() }()
	for range 10 {
		w.run()
	}
	if err := <-done; err != nil {
		t.Fatalf("the second sender process failed: %v", err)
	}
	per := map[string]int{}
	for _, g := range h.received() {
		b := decode(t, g.Body)
		per[b.Reader.DiscordID] += len(b.Chapters)
	}
	if len(per) != readers {
		t.Fatalf("%d Readers heard, want %d", len(per), readers)
	}
	for id, n := range per {
		if n != 2 {
			t.Errorf("Reader %s was told of %d chapters across two processes, want 2", id, n)
		}
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE sent_at IS NULL`); n != 0 {
		t.Fatalf("%d deliveries left unsent", n)
	}
}
