package browser_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
)

// newBrowser returns a Browser for cfg with short test bounds where cfg
// leaves a field zero; it is closed at cleanup.
func newBrowser(t testing.TB, cfg browser.Config) *browser.Browser {
	t.Helper()
	if cfg.ChallengeWait == 0 {
		cfg.ChallengeWait = 10 * time.Second
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 10 * time.Second
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 20 * time.Millisecond
	}
	b := mustNew(t, cfg)
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// mustNew is browser.New failing the test on error.
func mustNew(t testing.TB, cfg browser.Config) *browser.Browser {
	t.Helper()
	b, err := browser.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fetch(t testing.TB, b *browser.Browser, page, data string) (*sites.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return b.Fetch(ctx, sites.Request{Page: page, Data: data})
}

func mustFetch(t testing.TB, b *browser.Browser, page, data string) *sites.Response {
	t.Helper()
	res, err := fetch(t, b, page, data)
	if err != nil {
		t.Fatalf("Fetch(%s, %q): %v", page, data, err)
	}
	return res
}

// plainGet is what the plain route would see: no JavaScript, no cookie.
func plainGet(t *testing.T, u string) (int, http.Header, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(body)
}

func TestChallengePageReadThroughBrowser(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	page := s.URL + "/cf/series/7"

	status, header, body := plainGet(t, page)
	if status != http.StatusForbidden || header.Get("Cf-Mitigated") != "challenge" || !strings.Contains(body, "Just a moment") {
		t.Fatalf("plain GET: status %d, cf-mitigated %q; want the 403 challenge", status, header.Get("Cf-Mitigated"))
	}

	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	res := mustFetch(t, b, page, "")
	if res.Status != http.StatusOK {
		t.Errorf("status = %d, want 200", res.Status)
	}
	if !strings.Contains(string(res.Body), `class="latest"`) || strings.Contains(string(res.Body), "Just a moment") {
		t.Errorf("body is not the Series page:\n%s", res.Body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type = %q, want text/html", ct)
	}
	if res.FinalURL == nil || res.FinalURL.String() != page {
		t.Errorf("FinalURL = %v, want %s", res.FinalURL, page)
	}
}

func TestChallengeDataFetchedInsidePage(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	page, data := s.URL+"/cf/series/7", s.URL+"/cf/api/manga/7/chapters?limit=-1"

	if status, _, _ := plainGet(t, data); status != http.StatusForbidden {
		t.Fatalf("plain GET of the data URL: status %d, want 403", status)
	}

	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	res := mustFetch(t, b, page, data)
	if res.Status != http.StatusOK || string(res.Body) != chaptersJSON {
		t.Fatalf("in-page fetch: status %d body %q; want 200 %q", res.Status, res.Body, chaptersJSON)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if res.FinalURL == nil || res.FinalURL.String() != data {
		t.Errorf("FinalURL = %v, want %s", res.FinalURL, data)
	}
}

func TestChallengeThatNeverClearsIsRefused(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	// A challenge is refused only once it has been seen: the bound leaves a
	// loaded machine the time to load the page.
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 8 * time.Second})

	_, err := fetch(t, b, s.URL+"/never/series/7", "")
	if !errors.Is(err, sites.ErrChallenge) {
		t.Fatalf("err = %v, want sites.ErrChallenge", err)
	}
	// The cf-mitigated header alone marks a challenge.
	if _, err := fetch(t, b, s.URL+"/mitigated/series/7", ""); !errors.Is(err, sites.ErrChallenge) {
		t.Fatalf("cf-mitigated page: err = %v, want sites.ErrChallenge", err)
	}
	if errors.Is(err, sites.ErrUnreachable) {
		t.Fatalf("err = %v also wraps ErrUnreachable", err)
	}
	// The tab is still good: a refusal is about the page, not the sidecar.
	if !b.Connected() {
		t.Fatal("a refusal dropped the connection")
	}
	if res := mustFetch(t, b, s.URL+"/open/series/7", ""); res.Status != http.StatusOK {
		t.Fatalf("after a refusal: status %d", res.Status)
	}
}

func TestNotFoundPageKeepsItsStatus(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})

	res := mustFetch(t, b, s.URL+"/gone/series/7", "")
	if res.Status != http.StatusNotFound || !strings.Contains(string(res.Body), "No such series") {
		t.Fatalf("status %d body %q; want the 404 page", res.Status, res.Body)
	}
	// In-page data fetch of a missing document reports its status too.
	res = mustFetch(t, b, s.URL+"/open/series/7", s.URL+"/gone/api/7")
	if res.Status != http.StatusNotFound {
		t.Fatalf("data status %d, want 404", res.Status)
	}
}

func TestBodyOverLimitIsCut(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	const limit = 4 << 10
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), MaxBody: limit})

	for _, data := range []string{"", s.URL + "/big/data"} {
		res, err := fetch(t, b, s.URL+"/big/page", data)
		if !errors.Is(err, sites.ErrTooLarge) || res != nil {
			t.Errorf("data %q: res %v err %v, want sites.ErrTooLarge", data, res, err)
		}
		if got := sites.ClassifyError(err); got != sites.Unfetchable {
			t.Errorf("data %q: classified %s, want unfetchable", data, got)
		}
	}
	// Under the limit the body comes back whole.
	res := mustFetch(t, b, s.URL+"/open/series/7", s.URL+"/open/api/7")
	if string(res.Body) != chaptersJSON {
		t.Errorf("small body = %q", res.Body)
	}
}

func TestSiteDownIsNotUnreachable(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	dead := refusingAddr(t) // the Site, not the sidecar, is down
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})

	_, err := fetch(t, b, "http://"+dead+"/open/series/7", "")
	if err == nil || errors.Is(err, sites.ErrUnreachable) || errors.Is(err, sites.ErrChallenge) {
		t.Fatalf("err = %v; want a plain error (the Site refused, the sidecar is fine)", err)
	}
	if !b.Connected() {
		t.Fatal("a Site error dropped the sidecar connection")
	}
}

// refusingAddr is a loopback address that refuses connections for the
// whole test: a socket bound to it but never listening holds the port, so
// no other test's server can take it over (a closed server's port can be
// handed to the next server a parallel test starts, which then answers).
func refusingAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}

func TestUserAgentIsNotHeadless(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	mustFetch(t, b, s.URL+"/open/series/7", "")
	s.mu.Lock()
	agents := s.agents
	s.mu.Unlock()
	if len(agents) == 0 || strings.Contains(agents[0], "Headless") || !strings.Contains(agents[0], "Chrome/") {
		t.Fatalf("User-Agent seen by the Site: %q", agents)
	}

	custom := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), UserAgent: "mangabookmark-test/1"})
	mustFetch(t, custom, s.URL+"/open/series/8", "")
	s.mu.Lock()
	last := s.agents[len(s.agents)-1]
	s.mu.Unlock()
	if last != "mangabookmark-test/1" {
		t.Fatalf("User-Agent with Config.UserAgent: %q", last)
	}
}

func TestHTTPEndpointIsResolved(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	b := newBrowser(t, browser.Config{WSURL: chrome.HTTPURL()})
	if res := mustFetch(t, b, s.URL+"/open/series/7", ""); res.Status != http.StatusOK {
		t.Fatalf("status %d", res.Status)
	}
}

func TestConnectsLazily(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	s := newSite(t)
	before := pageCount(t, chrome)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL()})
	if b.Connected() || pageCount(t, chrome) != before {
		t.Fatal("New touched the sidecar")
	}
	mustFetch(t, b, s.URL+"/open/series/7", "")
	if !b.Connected() || pageCount(t, chrome) != before+1 {
		t.Fatalf("after Fetch: connected %v, pages %d; want one tab more than %d", b.Connected(), pageCount(t, chrome), before)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitPages(t, chrome, before) // after Close, the tab is gone
	if _, err := fetch(t, b, s.URL+"/open/series/7", ""); !errors.Is(err, browser.ErrClosed) {
		t.Fatalf("Fetch after Close: %v, want ErrClosed", err)
	}
}

func TestNoSidecarIsUnreachable(t *testing.T) {
	t.Parallel()
	for _, endpoint := range []string{
		"ws://127.0.0.1:1/devtools/browser/none",
		"http://127.0.0.1:1",
	} {
		b := newBrowser(t, browser.Config{WSURL: endpoint})
		_, err := fetch(t, b, "http://127.0.0.1:1/series/7", "")
		if !errors.Is(err, sites.ErrUnreachable) {
			t.Errorf("%s: err = %v, want sites.ErrUnreachable", endpoint, err)
		}
		if err := b.Ping(context.Background()); !errors.Is(err, sites.ErrUnreachable) {
			t.Errorf("%s: Ping = %v, want sites.ErrUnreachable", endpoint, err)
		}
	}
}

func pageCount(t testing.TB, c *chromiumtest.Chromium) int {
	t.Helper()
	pages, err := c.Pages()
	if err != nil {
		t.Fatalf("list pages: %v", err)
	}
	return len(pages)
}

func TestTabWaitTimeoutIsUnreachable(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Shared(t)
	s := newSite(t)
	b := newBrowser(t, browser.Config{WSURL: chrome.WSURL(), ChallengeWait: 20 * time.Second})

	// One read holds the tab on a page that never answers.
	held := make(chan error, 1)
	go func() {
		_, err := fetch(t, b, s.URL+"/hang/series/7", "")
		held <- err
	}()
	<-s.entered
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := b.Fetch(ctx, sites.Request{Page: s.URL + "/open/series/8"})
	if !errors.Is(err, browser.ErrTabBusy) || sites.ClassifyError(err) != sites.Unreachable {
		t.Fatalf("Fetch queued behind the tab: %v (classified %s), want ErrTabBusy, unreachable", err, sites.ClassifyError(err))
	}
	s.mu.Lock()
	hits := s.hits["/open/series/8"]
	s.mu.Unlock()
	if hits != 0 {
		t.Fatalf("the queued read reached the Site %d times", hits)
	}
	s.release()
	if err := <-held; err != nil {
		t.Logf("the holding read ended: %v", err) // its outcome is not under test
	}
}
