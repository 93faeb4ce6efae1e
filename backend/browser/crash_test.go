package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

func TestTabCrashIsUnreachableThenReconnects(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	waiting := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/wait" { // a challenge that never clears
			select {
			case waiting <- struct{}{}:
			default:
			}
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<html><head><title>Just a moment...</title></head><body></body></html>`)
			return
		}
		fmt.Fprint(w, `<html><head><title>Series</title></head><body>ok</body></html>`)
	}))
	t.Cleanup(srv.Close)
	pages := func() int {
		p, err := chrome.Pages()
		if err != nil {
			t.Fatal(err)
		}
		return len(p)
	}
	before := pages()

	b, err := New(Config{WSURL: chrome.WSURL(), ChallengeWait: 20 * time.Second, PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := b.Fetch(ctx, sites.Request{Page: srv.URL + "/wait"})
		errc <- err
	}()
	select {
	case <-waiting:
	case err := <-errc:
		t.Fatalf("Fetch ended before the crash: %v", err)
	}
	if chrome.KillRenderers() == 0 {
		t.Fatal("no renderer process found to kill")
	}

	err = <-errc
	if !errors.Is(err, sites.ErrUnreachable) {
		t.Fatalf("Fetch across the crash: %v, want sites.ErrUnreachable", err)
	}
	// Chrome may still be tearing down the crashed renderer when the next
	// read opens its tab, and that read is then unreachable too (a Lane would
	// be gated for 15 minutes by then). What must hold is that the Browser
	// recovers by itself within a few reads, with no leaked tab.
	var res *sites.Response
	for attempt := 0; attempt < 5; attempt++ {
		res, err = b.Fetch(ctx, sites.Request{Page: srv.URL + "/series"})
		if !errors.Is(err, sites.ErrUnreachable) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil || res.Status != http.StatusOK {
		t.Fatalf("after the crash: res %v err %v", res, err)
	}
	if n := pages(); n != before+1 {
		t.Fatalf("%d page targets, want one tab more than %d (the crashed tab closed)", n, before)
	}
}
