package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/client"
)

// TestBrowserTrackerCard drives the Trackers card in Chromium: axe-core
// finds no serious or critical violation on it (light and dark, and with
// a refusal shown), every control is named, the forms work without a
// script, and Connect runs the whole authorization-code flow through the
// AniList stand-in and back.
func TestBrowserTrackerCard(t *testing.T) {
	chromiumtest.Require(t)
	src := axeSource(t)
	w := newTrackerWorld(t, true)
	w.tr.set(readerID, client.Tracker{Service: "anilist", Username: "aki", Pull: true, State: "reconnect",
		LastPullAt: &lastPull, Error: "AniList refused the token (HTTP 401)."})
	w.tr.unmatched = someUnmatched(3)
	p := openPage(t).CancelTimeout().Timeout(4 * time.Minute)
	browserLogin(t, p, w.srv.URL, w.readerToken)
	axeClean := func(what string, schemes ...string) {
		t.Helper()
		for _, scheme := range schemes {
			if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}).Call(p); err != nil {
				t.Fatal(err)
			}
			for _, v := range axeSerious(t, p, src) {
				t.Errorf("%s (%s): %s", what, scheme, v)
			}
		}
	}
	p.MustNavigate(w.srv.URL + "/settings").MustWaitLoad()
	if !p.MustHas(`#trackers section.tracker[data-state="reconnect"]`) {
		t.Fatal("no Trackers card on the settings page")
	}
	cardNamed(t, p)
	axeClean("/settings", "light", "dark")

	// A refused save shows the reason beside the form and keeps the typing.
	p.MustElement("#anilist-username").MustSelectAllText().MustInput("aki tanaka")
	submit(p, `form[action="/trackers/anilist"] button[type=submit]`)
	if got := p.MustElement("#anilist-error").MustText(); !strings.Contains(got, "no spaces") {
		t.Fatalf("the refusal shown: %q", got)
	}
	if v := p.MustElement("#anilist-username").MustProperty("value").Str(); v != "aki tanaka" {
		t.Fatalf("the typed user name became %q", v)
	}
	cardNamed(t, p)
	axeClean("/trackers/anilist refused", "light")

	// Saved: back on the card with the flash.
	p.MustElement("#anilist-username").MustSelectAllText().MustInput("aki")
	submit(p, `form[action="/trackers/anilist"] button[type=submit]`)
	if got := p.MustElement("#flash").MustText(); got != "AniList settings saved." {
		t.Fatalf("flash after save: %q", got)
	}

	// Connect: to the stand-in, which approves at once, and back.
	wait := p.MustWaitNavigation()
	p.MustElement(`a[href="/trackers/anilist/connect"]`).MustClick()
	wait()
	p.MustWait(`() => !!document.getElementById('flash')`)
	if got := p.MustElement("#flash").MustText(); !strings.Contains(got, "Connected to AniList") {
		t.Fatalf("flash after Connect: %q (at %s)", got, p.MustInfo().URL)
	}
	if !w.tr.get(readerID).Connected || w.anilst.Requests("token") != 1 {
		t.Fatalf("after Connect in the browser: %+v, %d exchanges", w.tr.get(readerID), w.anilst.Requests("token"))
	}
	if !strings.Contains(p.MustElement("#trackers").MustText(), "held (sealed; never shown)") {
		t.Error("the card does not say a token is held")
	}
}

// cardNamed is assertNamed for the Trackers card alone (the notices
// part of the page names its read-only feed field with aria-label, which
// assertNamed's label check does not count).
func cardNamed(t *testing.T, p *rod.Page) {
	t.Helper()
	js := strings.ReplaceAll(unnamed, "document.querySelectorAll(", "document.getElementById('trackers').querySelectorAll(")
	for _, e := range p.MustEval(js).Arr() {
		t.Errorf("%s: unnamed control in the Trackers card %s", p.MustInfo().URL, e.Str())
	}
	if n := p.MustEval(`() => document.getElementById('trackers').querySelectorAll('input, button, a[href]').length`).Int(); n < 8 {
		t.Errorf("the Trackers card has only %d controls", n)
	}
}
