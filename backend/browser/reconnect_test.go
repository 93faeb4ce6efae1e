package browser_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

func TestKillMidFetchIsUnreachableThenReconnects(t *testing.T) {
	t.Parallel()
	for _, form := range []string{"ws", "http"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			chrome := chromiumtest.Launch(t)
			s := newSite(t)
			endpoint := chrome.WSURL() // names this browser run; stale after the restart
			if form == "http" {
				endpoint = chrome.HTTPURL()
			}
			b := newBrowser(t, browser.Config{WSURL: endpoint})
			mustFetch(t, b, s.URL+"/open/series/7", "")

			errc := make(chan error, 1)
			go func() {
				_, err := fetch(t, b, s.URL+"/hang/series/7", "")
				errc <- err
			}()
			select {
			case <-s.entered:
			case err := <-errc:
				t.Fatalf("Fetch ended before the kill: %v", err)
			}
			chrome.Kill()
			if err := <-errc; !errors.Is(err, sites.ErrUnreachable) {
				t.Fatalf("Fetch across the kill: %v, want sites.ErrUnreachable", err)
			}
			if b.Connected() {
				t.Fatal("still connected after the sidecar died")
			}
			if _, err := fetch(t, b, s.URL+"/open/series/7", ""); !errors.Is(err, sites.ErrUnreachable) {
				t.Fatalf("Fetch while the sidecar is down: %v, want sites.ErrUnreachable", err)
			}

			if _, err := chrome.Restart(); err != nil {
				t.Fatal(err)
			}
			res := mustFetch(t, b, s.URL+"/cf/series/7", s.URL+"/cf/api/manga/7/chapters")
			if res.Status != http.StatusOK || string(res.Body) != chaptersJSON {
				t.Fatalf("after restart: status %d body %q", res.Status, res.Body)
			}
		})
	}
}

// Not parallel: goroutines are counted for the whole process.
func TestNoLeaksAcrossReconnects(t *testing.T) {
	chrome := chromiumtest.Launch(t)
	s := newSite(t)
	pagesBefore := pageCount(t, chrome)
	ignore := goleak.IgnoreCurrent()

	b := mustNew(t, browser.Config{WSURL: chrome.HTTPURL(), PollInterval: 20 * time.Millisecond})
	for i := range 6 {
		page := fmt.Sprintf("%s/open/series/%d", s.URL, i)
		res, err := fetch(t, b, page, "")
		if errors.Is(err, sites.ErrUnreachable) {
			// The loss was noticed mid-read rather than before it.
			res, err = fetch(t, b, page, "")
		}
		if err != nil || res.Status != http.StatusOK {
			t.Fatalf("cycle %d: res %v err %v", i, res, err)
		}
		waitPages(t, chrome, pagesBefore+1)
		switch i % 3 {
		case 0: // the socket is cut; Chrome and the tab live on
			browser.DropSocket(b)
		case 1: // the sidecar dies and comes back
			if _, err := chrome.Restart(); err != nil {
				t.Fatal(err)
			}
			pagesBefore = pageCount(t, chrome)
		case 2: // a clean reconnect after a Ping on a live connection
			if err := b.Ping(t.Context()); err != nil {
				t.Fatalf("cycle %d: Ping: %v", i, err)
			}
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitPages(t, chrome, pagesBefore)
	goleak.VerifyNone(t, ignore,
		// The test Site's handlers for Chrome's keep-alive connections.
		goleak.IgnoreAnyFunction("net/http.(*conn).serve"),
	)
}

// waitPages waits for the browser to list want page targets: closing a
// tab is acknowledged before the tab is gone, and on a loaded machine
// Chrome takes seconds to drop it from the list. The bound is a minute; a
// leaked tab never leaves the list.
func waitPages(t testing.TB, c *chromiumtest.Chromium, want int) {
	t.Helper()
	var got int
	for deadline := time.Now().Add(time.Minute); ; {
		if got = pageCount(t, c); got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d page targets open, want %d", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestConcurrentCallersTakeTurnsOnOneTab(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	s := newSite(t)
	// Each data read stays open a little, so unserialised reads would
	// overlap at the Site.
	s.holdSlow = func() { time.Sleep(20 * time.Millisecond) }
	pagesBefore := pageCount(t, chrome)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})

	const lanes, reads = 3, 4
	var wg sync.WaitGroup
	errs := make(chan error, lanes*reads)
	for lane := range lanes {
		wg.Go(func() {
			for i := range reads {
				path := fmt.Sprintf("/slow/%d-%d", lane, i)
				res, err := fetch(t, b, s.URL+"/open/series/7", s.URL+path)
				switch {
				case err != nil:
					errs <- fmt.Errorf("lane %d read %d: %w", lane, i, err)
				case !strings.Contains(string(res.Body), path):
					errs <- fmt.Errorf("lane %d read %d got another read's body %q", lane, i, res.Body)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s.mu.Lock()
	maxIn := s.maxIn
	s.mu.Unlock()
	if maxIn != 1 {
		t.Errorf("%d reads were at the Site at once, want 1", maxIn)
	}
	waitPages(t, chrome, pagesBefore+1) // the one tab, no other left open
}
