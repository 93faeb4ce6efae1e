package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

var feedField = regexp.MustCompile(`id="feed" readonly value="([^"]+)"`)

func TestNoticesPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://mb.example")
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/notices")
	if page.code != 200 || !strings.Contains(page.body, "Digest window") || !strings.Contains(page.body, `data-copy="feed"`) {
		t.Fatalf("GET /notices: %d\n%s", page.code, page.body)
	}
	// The contract names the settings page /settings: the same page.
	if s := f.get(t, c, "/settings"); s.code != 200 || s.body != page.body {
		t.Fatalf("GET /settings: %d, the same page as /notices: %v\n%s", s.code, s.body == page.body, s.body)
	}
	m := feedField.FindStringSubmatch(page.body)
	if m == nil || !strings.HasPrefix(m[1], "https://mb.example/feeds/mbf_") {
		t.Fatalf("no feed URL on the page:\n%s", page.body)
	}
	feed := strings.TrimPrefix(m[1], "https://mb.example")
	if a := f.get(t, f.client(t), feed); a.code != 200 || !strings.Contains(a.body, "<feed") {
		t.Fatalf("the page's feed URL answers %d", a.code)
	}
	csrf := f.csrf(t, c, "/notices")
	if a := f.postForm(t, c, "/notices/feed/rotate", url.Values{"csrf": {csrf}}); a.code != http.StatusSeeOther {
		t.Fatalf("rotate: %d", a.code)
	}
	if a := f.get(t, f.client(t), feed); a.code != 404 {
		t.Fatalf("the old feed URL answers %d after a rotation", a.code)
	}
	if a := f.postForm(t, c, "/notices/feed/rotate", url.Values{}); a.code != http.StatusForbidden {
		t.Fatalf("rotate without csrf: %d", a.code)
	}

	var mu sync.Mutex
	hits := 0
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		hits++
		mu.Unlock()
	}))
	defer hook.Close()
	bad := f.postForm(t, c, "/notices", url.Values{"csrf": {csrf}, "digest_min": {"5"}, "webhook_url": {"ftp://x.example/"}})
	if bad.code != 400 || !strings.Contains(bad.body, "Webhook URL") {
		t.Fatalf("a bad webhook URL: %d\n%s", bad.code, bad.body)
	}
	if bad := f.postForm(t, c, "/notices", url.Values{"csrf": {csrf}, "digest_min": {"abc"}}); bad.code != 400 {
		t.Fatalf("a bad digest window: %d", bad.code)
	}
	ok := f.postForm(t, c, "/notices", url.Values{"csrf": {csrf}, "digest_min": {"0.5"}, "webhook_url": {hook.URL + "/in"}, "ntfy_url": {""}})
	if ok.code != 200 || !strings.Contains(ok.body, "Your webhook secret") || !strings.Contains(ok.body, "whsec_") {
		t.Fatalf("a new webhook URL does not show its secret: %d\n%s", ok.code, ok.body)
	}
	again := f.get(t, c, "/notices")
	if strings.Contains(again.body, "whsec_") {
		t.Fatal("the webhook secret is shown twice")
	}
	if !strings.Contains(again.body, `value="0.5"`) || !strings.Contains(again.body, hook.URL+"/in") {
		t.Fatalf("the saved settings are not shown:\n%s", again.body)
	}
	res := f.postForm(t, c, "/notices/test", url.Values{"csrf": {csrf}})
	if res.code != 200 || !strings.Contains(res.body, `data-outlet="webhook" data-ok="true"`) {
		t.Fatalf("test notice: %d\n%s", res.code, res.body)
	}
	mu.Lock()
	if hits != 1 {
		t.Errorf("the test notice reached the webhook %d times", hits)
	}
	mu.Unlock()
}

// The notify control moved from the card to the Series page (issue 32);
// its route and CSRF rule are the same, and it returns to the page.
func TestSeriesPageNotifyControl(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://mb.example")
	c := f.login(t, f.readerToken)
	sp := f.get(t, c, "/series/mangapill/2")
	if !strings.Contains(sp.body, `action="/library/mangapill/2/notify"`) || !strings.Contains(sp.body, `<option value="each" selected>`) {
		t.Fatalf("no notify control on the Series page:\n%s", sp.body)
	}
	csrf := f.csrf(t, c, "/series/mangapill/2")
	a := f.postForm(t, c, "/library/mangapill/2/notify", url.Values{"csrf": {csrf}, "mode": {"pile"}, "pile": {"4"}, "pile_days": {"3"}, "back": {"/series/mangapill/2"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/series/mangapill/2" {
		t.Fatalf("set notify: %d %q %s", a.code, a.header.Get("Location"), a.body)
	}
	var mode string
	var pile, days int
	if err := f.st.Pool().QueryRow(context.Background(), `SELECT notify_mode, notify_pile, notify_pile_days FROM bookmarks
		WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '2'`).Scan(&mode, &pile, &days); err != nil {
		t.Fatal(err)
	}
	if mode != "pile" || pile != 4 || days != 3 {
		t.Fatalf("stored %s %d %d", mode, pile, days)
	}
	if !strings.Contains(f.get(t, c, "/series/mangapill/2").body, `<option value="pile" selected>`) {
		t.Fatal("the Series page does not show the saved mode")
	}
	for _, bad := range []url.Values{
		{"mode": {"loud"}, "pile": {"3"}, "pile_days": {"7"}},
		{"mode": {"pile"}, "pile": {"0"}, "pile_days": {"7"}},
		{"mode": {"pile"}, "pile": {"3"}, "pile_days": {"99"}},
	} {
		bad.Set("csrf", csrf)
		if a := f.postForm(t, c, "/library/mangapill/2/notify", bad); a.code != 400 {
			t.Errorf("%v: %d", bad, a.code)
		}
	}
	if a := f.postForm(t, c, "/library/mangapill/nope/notify", url.Values{"csrf": {csrf}, "mode": {"off"}, "pile": {"3"}, "pile_days": {"7"}}); a.code != 404 {
		t.Errorf("unknown bookmark: %d", a.code)
	}
	if a := f.postForm(t, c, "/library/mangapill/2/notify", url.Values{"mode": {"off"}, "pile": {"3"}, "pile_days": {"7"}}); a.code != 403 {
		t.Errorf("no csrf: %d", a.code)
	}
}

// A webhook that answers 410 stops at once, and the settings page says so:
// the outlet marked stopped, with the answer as the reason.
func TestNoticesPageShowsAStoppedOutlet(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://mb.example")
	c := f.login(t, f.readerToken)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusGone)
	}))
	defer hook.Close()
	csrf := f.csrf(t, c, "/notices")
	if res := f.postForm(t, c, "/notices", url.Values{"csrf": {csrf}, "digest_min": {"0"}, "webhook_url": {hook.URL + "/in"}}); res.code != 200 {
		t.Fatalf("saving the webhook: %d", res.code)
	}
	if page := f.get(t, c, "/notices"); strings.Contains(page.body, "data-stopped") {
		t.Fatal("a stopped outlet before any send")
	}
	ctx := context.Background()
	for _, n := range []string{"10", "11"} { // the first good read is the baseline
		if _, err := f.st.RecordOK(ctx, "mangapill", "2", store.ReadFacts{Title: "Two", Number: n, ChURL: "https://mangapill.test/chapter/2-" + n}, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	f.clock.Add(time.Minute)
	if err := f.notices.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	page := f.get(t, c, "/notices")
	row := regexp.MustCompile(`<tr data-outlet="webhook" data-stopped>.*</tr>`).FindString(page.body)
	if !strings.Contains(row, ">stopped</strong>") || !strings.Contains(row, "HTTP 410 (Gone)") {
		t.Fatalf("the settings page does not show the webhook stopped with its reason: %q\n%s", row, page.body)
	}
}
