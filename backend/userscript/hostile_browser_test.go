package userscript_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// evilServer counts every request that reaches the attacker's host.
func evilServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"bookmarks":[],"applied":0}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// pageStrings evaluates a JS expression in the page's own world that
// returns an array of strings.
func pageStrings(t *testing.T, page *rod.Page, js string) []string {
	t.Helper()
	res, err := page.Timeout(5 * time.Second).Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range res.Value.Arr() {
		out = append(out, v.Str())
	}
	return out
}

// A hostile chapter page sets globals before the userscript loads (to
// switch it off and remap the Sites): they change nothing, the chapter is
// read as MangaPill's.
func TestHostilePageGlobalsCannotSwitchTheScriptOff(t *testing.T) {
	t.Parallel()
	runHostilePage(t, true)
}

// A hostile chapter page scrapes the DOM, every input's value, its own
// globals and storage for the token, answers dialogs, and fills the
// backend URL and token fields and "clicks" Save with synthetic events,
// many times over. The token is never found, nothing reaches the
// attacker's host, the settings are unchanged, and the script still reads
// the chapter and syncs it to the real backend.
func TestHostilePageCannotStealTheTokenOrRetargetTheBackend(t *testing.T) {
	t.Parallel()
	runHostilePage(t, false)
}

func runHostilePage(t *testing.T, presetGlobals bool) {
	t.Helper()
	e, hs := newRealSitesEnv(t)
	evil, evilHits := evilServer(t)

	raw, err := os.ReadFile("testdata/hostile-mangapill-chapter.html")
	if err != nil {
		t.Fatal(err)
	}
	hostile := strings.ReplaceAll(string(raw), "EVIL_ORIGIN", evil.URL)
	if presetGlobals {
		hostile = strings.ReplaceAll(hostile, "PRESET_GLOBALS", "on")
	}
	const chapterURL = "https://mangapill.com/chapters/2-11183500/one-piece-chapter-1183-5"
	page := sharedPage(t)
	routePages(t, page, map[string]string{chapterURL: hostile}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	keepReading(t, page)
	g.accept.Store(true) // were a dialog ever shown, a careless Reader says yes
	nav(t, page, chapterURL)

	if got := progressWithin(e.st, e.reader.ID, "mangapill", "2", "1183.5", 30*time.Second); got != "1183.5" {
		t.Errorf("the chapter was not read as MangaPill's (globals preset: %t): progress %q, want 1183.5", presetGlobals, got)
	}
	evalUntil(t, page, `() => window.__tries >= 40`, "the page script made all its attempts")
	// One more read after every attempt: it goes where the Reader said.
	if _, err := page.Eval(`() => history.pushState({}, '', '/chapters/2-11184000/one-piece-chapter-1184')`); err != nil {
		t.Fatal(err)
	}
	if got := progressWithin(e.st, e.reader.ID, "mangapill", "2", "1184", 20*time.Second); got != "1184" {
		t.Errorf("the next read did not reach the backend: progress %q, want 1184", got)
	}

	if stolen := pageStrings(t, page, `() => window.__stolen`); len(stolen) != 0 {
		t.Errorf("the page found the token or the GM functions: %v", stolen)
	}
	if n := evilHits.Load(); n != 0 {
		t.Errorf("%d requests reached the attacker's host", n)
	}
	for _, u := range g.sentURLs() {
		if !strings.HasPrefix(u, hs.URL+"/") {
			t.Errorf("the userscript sent a request to %s", u)
			break
		}
	}
	if got := g.value("mb_base_url"); got != hs.URL {
		t.Errorf("backend URL is now %q, want %q", got, hs.URL)
	}
	if got := g.value("mb_token"); got != e.token {
		t.Errorf("the token was replaced by the page")
	}
	if d := g.dialogMessages(); len(d) != 0 {
		t.Errorf("the page made the userscript ask: %q", d)
	}
	// The panel names the token by its last four characters only.
	if _, hint, _, _ := panelState(page, "mb-label"); hint != "token ••••"+e.token[len(e.token)-4:] {
		t.Errorf("token shown as %q, want its last four characters only", hint)
	}
	t.Logf("hostile inputs tried: %d", 40*9)
}

// The Reader changes the settings from the manager's menu only: a new
// backend URL is confirmed in a dialog outside the page, and saying no
// keeps the old one; a token comes in the browser's own prompt, and text
// that is not a token is refused with a toast.
func TestReaderChangesSettingsWithConfirmation(t *testing.T) {
	t.Parallel()
	e, hs := newRealSitesEnv(t)
	other, _ := evilServer(t)

	const seriesURL = "https://mangapill.com/manga/3/other"
	page := sharedPage(t)
	routePages(t, page, map[string]string{seriesURL: "<!doctype html><title>Other</title><h1>Other</h1>"}, nil)
	g := installUserscript(t, page, map[string]string{"mb_base_url": hs.URL, "mb_token": e.token}, e.js)
	nav(t, page, seriesURL)
	waitStatus(t, page, "✓", 30*time.Second)

	// The Reader types another URL and says no to the confirmation.
	g.answer.Store(other.URL)
	g.menu("Set backend URL…")
	waitDialogs(t, g, 2) // the prompt, then the confirmation
	if d := g.dialogMessages()[1]; !strings.Contains(d, other.URL) {
		t.Errorf("the confirmation does not name the new URL: %q", d)
	}
	if got := g.value("mb_base_url"); got != hs.URL {
		t.Fatalf("backend URL changed without the Reader's yes: %q", got)
	}
	// Again, and the Reader says yes; then back.
	g.accept.Store(true)
	g.menu("Set backend URL…")
	waitValue(t, g, "mb_base_url", other.URL)
	g.answer.Store(hs.URL)
	g.menu("Set backend URL…")
	waitValue(t, g, "mb_base_url", hs.URL)

	// Something that is not a token is refused, and says so.
	g.answer.Store("hunter2")
	g.menu("Set token…")
	waitPanel(t, page, "mb-toast", "a toast for a token that is not one", func(text, _ string, shown bool) bool {
		return shown && strings.Contains(text, "not a mangabookmark token")
	})
	if got := g.value("mb_token"); got != e.token {
		t.Fatalf("the token became %q", got)
	}
	g.answer.Store("mb_" + strings.Repeat("Z", 39) + "wxyz")
	g.menu("Set token…")
	waitValue(t, g, "mb_token", "mb_"+strings.Repeat("Z", 39)+"wxyz")
	waitPanel(t, page, "mb-label", "the hint shows the new token's last four", func(_, title string, _ bool) bool { return title == "token ••••wxyz" })
}

func waitDialogs(t *testing.T, g *gmHost, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(g.dialogMessages()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("dialogs %q, want %d", g.dialogMessages(), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func waitValue(t *testing.T, g *gmHost, key, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for g.value(key) != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q, want %q", key, g.value(key), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
