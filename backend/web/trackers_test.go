package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/web"
	"mangabookmark/client"
)

func TestTrackerCardHiddenWithoutService(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/settings")
	if page.code != http.StatusOK || strings.Contains(page.body, `id="trackers"`) {
		t.Fatalf("settings without tracker sync: %d, card shown: %v", page.code, strings.Contains(page.body, `id="trackers"`))
	}
	csrf := f.csrf(t, c, "/settings")
	for _, path := range []string{"/trackers/anilist", "/trackers/anilist/token", "/trackers/anilist/pull", "/trackers/anilist/forget"} {
		if a := f.postForm(t, c, path, url.Values{"csrf": {csrf}}); a.code != http.StatusNotFound {
			t.Errorf("POST %s without tracker sync: %d", path, a.code)
		}
	}
	for _, path := range []string{"/trackers/anilist/connect", "/trackers/anilist/callback?state=x&code=y"} {
		if a := f.get(t, c, path); a.code != http.StatusNotFound {
			t.Errorf("GET %s without tracker sync: %d", path, a.code)
		}
	}
}

func TestTrackerCardShowsState(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, true)
	w.tr.set(readerID, client.Tracker{Service: "anilist", Username: "aki", Pull: true, Push: true, Connected: true,
		State: "reconnect", LastPullAt: &lastPull, Error: "AniList refused the token (HTTP 401)."})
	w.tr.unmatched = someUnmatched(60)
	c := w.login(t, w.readerToken)
	page := w.get(t, c, "/settings")
	if page.code != http.StatusOK {
		t.Fatalf("settings: %d", page.code)
	}
	for _, want := range []string{
		`id="trackers"`, `data-state="reconnect"`, `value="aki"`, `name="pull" checked`, `name="push" checked`,
		"AniList refused the token (it expired or was revoked)", "Last error: AniList refused the token (HTTP 401).",
		"2026-03-01 09:30 UTC", `href="/trackers/anilist/connect"`, "Pull now", "Forget AniList",
		"60 entries of your AniList list match no Series we read; the first 50 are shown", "<td>900049</td>",
	} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the card lacks %q", want)
		}
	}
	if strings.Contains(page.body, "<td>900050</td>") {
		t.Error("the card lists more than 50 unmatched entries")
	}
	if !strings.Contains(page.body, `<th scope="col">title</th>`) {
		t.Error("titled entries without the title column")
	}
	// An untitled list (the pull's document asks no titles) has no
	// title column.
	w.tr.mu.Lock()
	w.tr.unmatched = []client.TrackerEntry{{MediaID: "777", Progress: 4}}
	w.tr.mu.Unlock()
	if p := w.get(t, c, "/settings"); strings.Contains(p.body, `<th scope="col">title</th>`) || !strings.Contains(p.body, "<td>777</td><td class=\"num\">4</td>") {
		t.Error("an untitled list's table is not id and count")
	}
	// /notices is the same page.
	if n := w.get(t, c, "/notices"); !strings.Contains(n.body, `id="trackers"`) {
		t.Error("/notices lacks the card")
	}
}

func TestTrackerCardOffWithoutConnect(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	c := w.login(t, w.readerToken)
	page := w.get(t, c, "/settings")
	switch {
	case !strings.Contains(page.body, `data-state="off"`):
		t.Error("a Reader with no tracker is not shown off")
	case strings.Contains(page.body, "/trackers/anilist/connect"):
		t.Error("the Connect button shows without an AniList client")
	case !strings.Contains(page.body, `action="/trackers/anilist/token"`):
		t.Error("the paste-token form is missing")
	case strings.Contains(page.body, "Not on a Site we read yet"):
		t.Error("unmatched entries listed with no user name")
	}
	if a := w.get(t, c, "/trackers/anilist/connect"); a.code != http.StatusNotFound {
		t.Errorf("connect without an AniList client: %d", a.code)
	}
}

func TestTrackerSaveRedirectsWithFlash(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	c := w.login(t, w.readerToken)
	csrf := w.csrf(t, c, "/settings")
	a := w.postForm(t, c, "/trackers/anilist", url.Values{"csrf": {csrf}, "username": {" aki "}, "pull": {"on"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/settings?tracker=anilist&done=saved#trackers" {
		t.Fatalf("save: %d %s", a.code, a.header.Get("Location"))
	}
	if got := w.tr.get(readerID); got.Username != "aki" || !got.Pull || got.Push {
		t.Fatalf("saved: %+v", got)
	}
	page := w.get(t, c, "/settings?tracker=anilist&done=saved")
	if !strings.Contains(page.body, `role="status" id="flash">AniList settings saved.`) {
		t.Error("no flash after the save")
	}
	if !strings.Contains(page.body, "Your list has not been read yet") {
		t.Error("before the first pull, the card does not say the list is unread")
	}
	got := w.tr.get(readerID)
	got.LastPullAt = &lastPull
	w.tr.set(readerID, got)
	if page := w.get(t, c, "/settings"); !strings.Contains(page.body, "None: every entry of your list is a Series we read.") {
		t.Error("after a pull with nothing unmatched, the card does not say so")
	}
	// The flash is picked from a fixed list; nothing of the URL is echoed.
	for _, q := range []string{"?tracker=anilist&done=%3Cscript%3E", "?tracker=%3Cb%3E&done=saved"} {
		if p := w.get(t, c, "/settings"+q); strings.Contains(p.body, `id="flash"`) || strings.Contains(p.body, "<script>") || strings.Contains(p.body, "<b>") {
			t.Errorf("%s shows a flash", q)
		}
	}
	a = w.postForm(t, c, "/trackers/anilist/pull", url.Values{"csrf": {csrf}})
	if a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "done=pull") || w.tr.count("pull") != 1 {
		t.Fatalf("pull now: %d %s", a.code, a.header.Get("Location"))
	}
	a = w.postForm(t, c, "/trackers/anilist/forget", url.Values{"csrf": {csrf}})
	if a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "done=forgot") || w.tr.get(readerID).Username != "" {
		t.Fatalf("forget: %d %s", a.code, a.header.Get("Location"))
	}
}

func TestTrackerSaveRefusalsKeepInput(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	w.tr.unknown = "nobody"
	c := w.login(t, w.readerToken)
	csrf := w.csrf(t, c, "/settings")
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		reason string
		calls  int
	}{
		{"space", url.Values{"username": {"aki tanaka"}, "pull": {"on"}}, 400, "A user name has no spaces", 0},
		{"long", url.Values{"username": {strings.Repeat("a", 65)}}, 400, "at most 64 characters", 0},
		{"control", url.Values{"username": {"a\x01b"}}, 400, "no line breaks", 0},
		{"pull without name", url.Values{"pull": {"on"}, "push": {"on"}}, 400, "Reading your list needs your AniList user name.", 0},
		{"unknown user", url.Values{"username": {"nobody"}, "pull": {"on"}}, 400, "AniList knows no user nobody.", 1},
		{"push without token", url.Values{"username": {"aki"}, "push": {"on"}}, 400, "Push needs a token", 1},
	} {
		before := w.tr.count("save")
		tc.form.Set("csrf", csrf)
		a := w.postForm(t, c, "/trackers/anilist", tc.form)
		if a.code != tc.status || !strings.Contains(a.body, tc.reason) || !strings.Contains(a.body, `role="alert" id="anilist-error" data-form="save"`) {
			t.Errorf("%s: %d, reason shown: %v", tc.name, a.code, strings.Contains(a.body, tc.reason))
		}
		if got := w.tr.count("save") - before; got != tc.calls {
			t.Errorf("%s: the service was called %d times, want %d", tc.name, got, tc.calls)
		}
		// What was typed is in the form again.
		if u := strings.TrimSpace(tc.form.Get("username")); !strings.Contains(a.body, `name="username" size="24" maxlength="64" autocomplete="off" autocapitalize="none" spellcheck="false" value="`+htmlEscape(u)+`"`) {
			t.Errorf("%s: the user name typed is lost", tc.name)
		}
		if tc.form.Get("pull") == "on" && !strings.Contains(a.body, `name="pull" checked`) {
			t.Errorf("%s: the pull switch is lost", tc.name)
		}
		if tc.form.Get("push") == "on" && !strings.Contains(a.body, `name="push" checked`) {
			t.Errorf("%s: the push switch is lost", tc.name)
		}
	}
	// The server's trouble is not the Reader's: 503, the input kept, no
	// error text of the service shown.
	w.tr.mu.Lock()
	w.tr.fail = errorString("db: connection refused")
	w.tr.mu.Unlock()
	a := w.postForm(t, c, "/trackers/anilist", url.Values{"csrf": {csrf}, "username": {"aki"}, "pull": {"on"}})
	if a.code != http.StatusServiceUnavailable || !strings.Contains(a.body, `value="aki"`) || strings.Contains(a.body, "connection refused") || !strings.Contains(a.body, "Try again shortly") {
		t.Errorf("a failing service: %d", a.code)
	}
	// CSRF and the form cap hold as for every form.
	before := w.tr.count("save")
	if a := w.postForm(t, c, "/trackers/anilist", url.Values{"username": {"aki"}}); a.code != http.StatusForbidden {
		t.Errorf("no csrf: %d", a.code)
	}
	if a := w.postForm(t, c, "/trackers/anilist", url.Values{"csrf": {csrf}, "username": {strings.Repeat("a", 20<<10)}}); a.code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the cap: %d", a.code)
	}
	if w.tr.count("save") != before {
		t.Error("a refused form reached the service")
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestTrackerToken(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	c := w.login(t, w.readerToken)
	csrf := w.csrf(t, c, "/settings")
	for _, tc := range []struct {
		token, reason string
		calls         int
	}{
		{"  ", "Paste the token AniList showed you first.", 0},
		{"not a token!", "That is not a AniList token", 0},
		{strings.Repeat("a", 9<<10), "That is not a AniList token", 0},
		{"refused.token", "AniList refused that token: paste a new one.", 1},
	} {
		before := w.tr.count("token")
		a := w.postForm(t, c, "/trackers/anilist/token", url.Values{"csrf": {csrf}, "token": {tc.token}})
		if a.code != http.StatusBadRequest || !strings.Contains(a.body, tc.reason) || !strings.Contains(a.body, `data-form="token"`) {
			t.Errorf("token %.12q: %d", tc.token, a.code)
		}
		if strings.TrimSpace(tc.token) != "" && strings.Contains(a.body, tc.token) {
			t.Errorf("token %.12q is echoed in the page", tc.token)
		}
		if got := w.tr.count("token") - before; got != tc.calls {
			t.Errorf("token %.12q: %d calls, want %d", tc.token, got, tc.calls)
		}
	}
	a := w.postForm(t, c, "/trackers/anilist/token", url.Values{"csrf": {csrf}, "token": {"eyJhbGciOi.good-token_1"}})
	if a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "done=token") {
		t.Fatalf("a good token: %d %s", a.code, a.header.Get("Location"))
	}
	if page := w.get(t, c, "/settings"); strings.Contains(page.body, "good-token") || !strings.Contains(page.body, "held (sealed; never shown)") {
		t.Error("the page shows the token, or not that one is held")
	}
	// Pull now without a user name is the service's refusal, shown.
	if a := w.postForm(t, c, "/trackers/anilist/pull", url.Values{"csrf": {csrf}}); a.code != http.StatusBadRequest || !strings.Contains(a.body, "Pull needs your AniList user name.") {
		t.Errorf("pull without a user name: %d", a.code)
	}
}

// connectState starts the Connect flow in c and returns the authorize
// URL the page sent it to.
func (w *trackerWorld) connectState(t *testing.T, c *http.Client) *url.URL {
	t.Helper()
	a := w.get(t, c, "/trackers/anilist/connect")
	if a.code != http.StatusSeeOther {
		t.Fatalf("connect: %d %s", a.code, a.body)
	}
	u, err := url.Parse(a.header.Get("Location"))
	if err != nil || !strings.HasPrefix(u.String(), w.tr.origin+"/api/v2/oauth/authorize?") || u.Query().Get("state") == "" {
		t.Fatalf("connect sent the browser to %q", a.header.Get("Location"))
	}
	return u
}

// approve follows the authorize URL at the stand-in (which approves at
// once) and returns the callback path and query it redirects to.
func (w *trackerWorld) approve(t *testing.T, authorize *url.URL) string {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	resp, err := c.Get(authorize.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || back.Path != "/trackers/anilist/callback" {
		t.Fatalf("the stand-in answered %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return back.RequestURI()
}

func TestTrackerConnectAgainstStandIn(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, true)
	c := w.login(t, w.readerToken)
	callback := w.approve(t, w.connectState(t, c))
	a := w.get(t, c, callback)
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/settings?tracker=anilist&done=connected#trackers" {
		t.Fatalf("callback: %d %s %s", a.code, a.header.Get("Location"), a.body)
	}
	if got := w.tr.get(readerID); !got.Connected || !strings.HasPrefix(w.tr.tokens[readerID], "standin-token-") {
		t.Fatalf("after Connect: %+v", got)
	}
	if page := w.get(t, c, "/settings?tracker=anilist&done=connected"); !strings.Contains(page.body, "Connected to AniList") {
		t.Error("no flash after Connect")
	}
	// The same callback again (a replay) is refused before any exchange.
	exchanges := w.anilst.Requests("token")
	if a := w.get(t, c, callback); a.code != http.StatusForbidden || !strings.Contains(a.body, "Connect refused") {
		t.Errorf("a replayed callback: %d", a.code)
	}
	if w.anilst.Requests("token") != exchanges || w.tr.count("exchange") != 1 {
		t.Error("a replayed callback exchanged its code")
	}
}

func TestTrackerCallbackRefusals(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, true)
	c := w.login(t, w.readerToken)
	other := w.login(t, w.readerToken) // the same Reader in another browser
	stateOf := func(c *http.Client) string { return w.connectState(t, c).Query().Get("state") }
	good := stateOf(c)
	tampered := []byte(good)
	tampered[len(tampered)-2] ^= 1
	for _, tc := range []struct {
		name, query string
		status      int
		says        string
	}{
		{"no state", "?code=standin-code-x", http.StatusForbidden, "Connect refused"},
		{"a made-up state", "?code=standin-code-x&state=bm90LWEtc3RhdGU", http.StatusForbidden, "Connect refused"},
		{"a tampered state", "?code=standin-code-x&state=" + string(tampered), http.StatusForbidden, "Connect refused"},
		{"another session's state", "?code=standin-code-x&state=" + stateOf(other), http.StatusForbidden, "Connect refused"},
		{"AniList's error", "?error=access_denied&state=" + stateOf(c), http.StatusBadRequest, "You declined on AniList"},
		{"an odd error", "?error=%3Cscript%3E&state=" + stateOf(c), http.StatusBadRequest, "it answered an error"},
		{"no code", "?state=" + stateOf(c), http.StatusBadRequest, "carried no usable code"},
	} {
		a := w.get(t, c, "/trackers/anilist/callback"+tc.query)
		if a.code != tc.status || !strings.Contains(a.body, tc.says) || strings.Contains(a.body, "<script>") {
			t.Errorf("%s: %d %q", tc.name, a.code, a.body)
		}
	}
	// A state past its ten minutes.
	old := stateOf(c)
	w.clock.Add(11 * time.Minute)
	if a := w.get(t, c, "/trackers/anilist/callback?code=standin-code-x&state="+old); a.code != http.StatusForbidden {
		t.Errorf("an expired state: %d", a.code)
	}
	if n := w.tr.count("exchange"); n != 0 {
		t.Fatalf("%d exchanges for refused callbacks", n)
	}
	if w.anilst.Requests("token") != 0 {
		t.Fatal("a refused callback reached the token endpoint")
	}
	// A code AniList refuses is the Reader's to retry: 400 with the reason.
	if a := w.get(t, c, "/trackers/anilist/callback?code=standin-code-unknown&state="+stateOf(c)); a.code != http.StatusBadRequest || !strings.Contains(a.body, "AniList refused the authorization") {
		t.Errorf("a refused code: %d", a.code)
	}
	// Without a session, the callback exchanges nothing and goes to login.
	anon := w.client(t)
	if a := w.get(t, anon, "/trackers/anilist/callback?code=standin-code-x&state="+good); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Errorf("a callback without a session: %d %s", a.code, a.header.Get("Location"))
	}
	if a := w.get(t, anon, "/trackers/anilist/connect"); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Errorf("connect without a session: %d", a.code)
	}
}

// statesService is the fake with the States() trackersync's Service has.
type statesService struct {
	*fakeTrackers
	states *trackers.States
}

func (s statesService) States() *trackers.States { return s.states }

func TestTrackerDepsFromTheService(t *testing.T) {
	t.Parallel()
	// A nil *Service in the interface (cmd without TOKEN_KEY) is no
	// service: the card hides and the routes answer 404.
	f := newFixtureWith(t, "", func(d *web.Deps) { var none *fakeTrackers; d.Trackers = none })
	c := f.login(t, f.readerToken)
	if page := f.get(t, c, "/settings"); page.code != http.StatusOK || strings.Contains(page.body, `id="trackers"`) {
		t.Fatalf("a nil service: %d, card shown %v", page.code, strings.Contains(page.body, `id="trackers"`))
	}
	if a := f.get(t, c, "/trackers/anilist/connect"); a.code != http.StatusNotFound {
		t.Errorf("connect with a nil service: %d", a.code)
	}
	// Without Deps.TrackerStates, the service's own States() make the state.
	tr := newFakeTrackers()
	tr.oauth = true
	f = newFixtureWith(t, "", func(d *web.Deps) {
		states, err := trackers.NewStates(trackers.StatesConfig{TokenKey: []byte(testKey), Now: d.Now})
		if err != nil {
			t.Fatal(err)
		}
		d.Trackers = statesService{tr, states}
	})
	tr.origin, tr.redirect = "http://127.0.0.1:1", f.srv.URL+"/trackers/anilist/callback"
	c = f.login(t, f.readerToken)
	if page := f.get(t, c, "/settings"); !strings.Contains(page.body, `href="/trackers/anilist/connect"`) {
		t.Error("no Connect button with the service's states")
	}
	if a := f.get(t, c, "/trackers/anilist/connect"); a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "state=") {
		t.Errorf("connect with the service's states: %d %s", a.code, a.header.Get("Location"))
	}
}
