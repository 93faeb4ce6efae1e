package readernotice_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// One Reader's outlets that never answer hold only that Reader's sends:
// another Reader's notice arrives while they still hang (the security
// review's N1, where Ann waited up to 47 s behind Bob's outlets). Two
// workers and a bound of one send per Reader: without the bound Bob's two
// hanging outlets would take both workers, and a sender that waits for
// its batch would never make Ann's Digest. Not parallel: goleak checks that
// Stop ends every send and connection it started.
func TestHangingOutletsOfOneReaderDoNotHoldOthers(t *testing.T) {
	hung := make(chan struct{}, 1)
	var answered atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // read whole, so the server sees the sender hang up
		select {
		case hung <- struct{}{}:
		default:
		}
		<-r.Context().Done() // never answers; ends when the sender gives up
		answered.Add(1)
	}))
	defer slow.Close()
	arrived := make(chan struct{}, 1)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer fast.Close()

	w := newWorld(t, func(c *readernotice.Config) {
		c.Interval = 10 * time.Millisecond
		c.Workers, c.ReaderSends = 2, 1
		c.Guard.Timeout = time.Hour // Bob's sends hang for the whole test
	})
	bob := w.reader("bob", nil, 0)
	hook, topic := slow.URL+"/hook", slow.URL+"/topic"
	if _, err := w.svc.UpdateSettings(w.ctx, bob, readernotice.SettingsChange{WebhookURL: &hook, NtfyURL: &topic}); err != nil {
		t.Fatal(err)
	}
	ann := w.reader("ann", nil, 0)
	annHook := fast.URL + "/hook"
	if _, err := w.svc.UpdateSettings(w.ctx, ann, readernotice.SettingsChange{WebhookURL: &annHook}); err != nil {
		t.Fatal(err)
	}
	w.bookmark(bob, "mangapill", "b")
	w.bookmark(ann, "mangapill", "a")
	w.read("mangapill", "b", "1")
	w.read("mangapill", "b", "2")

	leaks := goleak.IgnoreCurrent()
	w.svc.Start(context.Background())
	<-hung // Bob's Digest is out and one of his outlets hangs
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	<-arrived // Ann's notice, with Bob's still hanging
	if n := answered.Load(); n != 0 {
		t.Fatalf("Bob's outlet let go %d times before Ann's notice arrived; the test wants it hanging", n)
	}
	w.svc.Stop()
	// Stop returns once its sends are over, not eventually: at this moment
	// no goroutine may still be in a send (sendOne). One whose send is over
	// may not have exited yet the moment Wait returns (CI caught one at its
	// wrapper's last line, after Done): such a goroutine gets a chance to
	// be scheduled, by yields and no clock, and must then be gone.
	buf := make([]byte, 1<<20)
	st := buf[:runtime.Stack(buf, true)]
	if bytes.Contains(st, []byte("readernotice.(*Service).sendOne")) {
		t.Fatalf("a send still runs after Stop returned:\n%s", st)
	}
	for i := 0; i < 1000 && bytes.Contains(st, []byte("readernotice.(*Service)")); i++ {
		runtime.Gosched()
		st = buf[:runtime.Stack(buf, true)]
	}
	if bytes.Contains(st, []byte("readernotice.(*Service)")) {
		t.Fatalf("a goroutine of the Service's is left after Stop returned:\n%s", st)
	}
	goleak.VerifyNone(t, leaks) // the connections close behind it
}

func TestNewRefusesReaderSendsThatHoldEveryWorker(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ workers, readerSends int }{{4, 4}, {4, 9}, {0, 16}, {2, -1}} {
		_, err := readernotice.New(readernotice.Config{Store: &store.Store{}, Workers: c.workers, ReaderSends: c.readerSends})
		if err == nil || !strings.Contains(err.Error(), "ReaderSends") {
			t.Errorf("Workers %d, ReaderSends %d: %v, want a refusal naming ReaderSends", c.workers, c.readerSends, err)
		}
	}
	if _, err := readernotice.New(readernotice.Config{Store: &store.Store{}, Workers: 1, ReaderSends: 1}); err != nil {
		t.Errorf("one worker, one send per Reader: %v", err)
	}
}
