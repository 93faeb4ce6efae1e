package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/browser/chromiumtest"
)

// TestBrowserPushWorkerAndButton loads the notices page in a real Chromium over
// loopback: the service worker at /sw.js registers for the whole site, the
// manifest loads without errors, the "Enable notifications" button shows,
// the page's script posts a browser subscription the server stores, and a
// push message delivered to the worker becomes a notification whose link
// is kept to http(s). Headless Chromium reaches no real push service, so
// pushManager.subscribe itself is not exercised past its refusal.
func TestBrowserPushWorkerAndButton(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	// The button alone may take the page script's 15 s when the browser's
	// push service never answers, so the 60 s bound openPage sets for a
	// whole test is too tight on a loaded machine: this test has three
	// minutes against a hang, and its waits their own bounds.
	p := openPage(t).CancelTimeout().Timeout(3 * time.Minute)
	origin := f.srv.URL
	if err := (proto.BrowserGrantPermissions{Permissions: []proto.BrowserPermissionType{proto.BrowserPermissionTypeNotifications},
		Origin: origin}).Call(p.Browser()); err != nil {
		t.Fatal(err)
	}
	browserLogin(t, p, origin, f.readerToken)
	p.MustNavigate(origin + "/notices").MustWaitLoad()
	p.MustElement("#push-enable").MustWaitVisible()
	// The card's controls are named for a screen reader (the rest of the
	// page is the notices page's tests').
	if bad := p.MustEval(strings.ReplaceAll(unnamed, "document.querySelectorAll(", "document.getElementById('push').querySelectorAll(")).Arr(); len(bad) != 0 {
		t.Errorf("unnamed controls in the notifications card: %v", bad)
	}

	sw := p.MustEval(`() => navigator.serviceWorker.ready.then(r => r.active.scriptURL + " " + r.scope)`).Str()
	if sw != origin+"/sw.js "+origin+"/" {
		t.Fatalf("service worker %q, want %s/sw.js for scope %s/", sw, origin, origin)
	}
	man, err := proto.PageGetAppManifest{}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	if man.URL != origin+"/manifest.webmanifest" || len(man.Errors) != 0 || man.Data == "" {
		for _, e := range man.Errors {
			t.Errorf("manifest error: %s", e.Message)
		}
		t.Fatalf("manifest %q: %d errors", man.URL, len(man.Errors))
	}
	if inst, err := (proto.PageGetInstallabilityErrors{}).Call(p); err == nil {
		for _, e := range inst.InstallabilityErrors {
			t.Errorf("not installable: %s", e.ErrorID)
		}
	}

	// The page's own script posts a subscription shaped as a browser's
	// toJSON() with the session and csrf, and the server keeps it.
	const endpoint = "https://93.184.215.14/wpush/v2/chromium"
	code := p.MustEval(`s => window.mangabookmarkPush.save(JSON.parse(s)).then(r => r.status)`, subscriptionJSON(t, endpoint)).Int()
	if code != 201 {
		t.Fatalf("the page's subscription post answered %d", code)
	}
	if _, err := f.st.GetPushSubscription(context.Background(), 2, endpoint); err != nil {
		t.Fatalf("the page's subscription was not stored: %v", err)
	}

	// The button asks the browser; headless Chromium has no push service,
	// so it must end in a message and a button that can be pressed again.
	p.MustElement("#push-enable").MustClick()
	if err := p.Timeout(30 * time.Second).Wait(rod.Eval(`() => {
		const s = document.getElementById("push-status").textContent;
		return s !== "" && s !== "Asking the browser…" && (!document.getElementById("push-enable").disabled || !document.getElementById("push-disable").hidden);
	}`).ByPromise()); err != nil {
		t.Fatalf("the button never settled (%q): %v", p.MustEval(`() => document.getElementById("push-status").textContent`).Str(), err)
	}
	t.Logf("after the click: %q", p.MustElement("#push-status").MustText())

	// A push message reaches the worker and is shown. The registration's id
	// comes only in the events ServiceWorker.enable sends, so the test
	// listens before it enables the domain (rod's EachEvent enables first
	// and subscribes after, and lost those events on a loaded machine).
	regID := registrationID(t, p, origin+"/")
	deliver := func(m map[string]string) {
		b, _ := json.Marshal(m)
		if err := (proto.ServiceWorkerDeliverPushMessage{Origin: origin, RegistrationID: regID, Data: string(b)}).Call(p); err != nil {
			t.Fatal(err)
		}
	}
	shown := func(n int) []any {
		t.Helper()
		var out []any
		if err := p.Timeout(30 * time.Second).Wait(rod.Eval(`n => navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length >= n)`, n).ByPromise()); err != nil {
			t.Fatalf("%d notifications never showed: %v", n, err)
		}
		for _, v := range p.MustEval(`() => navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.map(x => [x.title, x.body, x.data.url]))`).Arr() {
			out = append(out, v.Val())
		}
		return out
	}
	deliver(map[string]string{"title": "New chapter: The Ninth 9", "body": "Series 2 9 (The Ninth)", "url": "https://mangapill.test/chapter/2-9"})
	got := shown(1)
	if s, _ := json.Marshal(got[0]); string(s) != `["New chapter: The Ninth 9","Series 2 9 (The Ninth)","https://mangapill.test/chapter/2-9"]` {
		t.Fatalf("notification %s", s)
	}
	// A message whose link is not http(s) opens the library instead (the
	// tag replaces the first notification).
	deliver(map[string]string{"title": "x", "body": "y", "url": "javascript:alert(1)"})
	if err := p.Timeout(30 * time.Second).Wait(rod.Eval(`() => navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length === 1 && ns[0].title === "x")`).ByPromise()); err != nil {
		t.Fatalf("the second message did not replace the first: %v", err)
	}
	if u := p.MustEval(`() => navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns[0].data.url)`).Str(); u != origin+"/" {
		t.Fatalf("a javascript: link became %q, want the library %s/", u, origin)
	}
	if strings.Contains(p.MustEval(`() => document.body.innerHTML`).Str(), "alert(1)") {
		t.Fatal("the push data reached the page")
	}
}

// registrationID enables the ServiceWorker domain and returns the id of the
// registration whose scope is scope, from the events the enable sends. It
// subscribes to the page's events before it enables, so none is missed.
func registrationID(t *testing.T, p *rod.Page, scope string) proto.ServiceWorkerRegistrationID {
	t.Helper()
	lp, cancel := p.WithCancel()
	defer cancel()
	lp = lp.Timeout(60 * time.Second)
	events := lp.Event()
	if err := (proto.ServiceWorkerEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	for msg := range events {
		if msg.Method != (&proto.ServiceWorkerWorkerRegistrationUpdated{}).ProtoEvent() {
			continue
		}
		var e proto.ServiceWorkerWorkerRegistrationUpdated
		if !msg.Load(&e) {
			continue
		}
		for _, r := range e.Registrations {
			if r.ScopeURL == scope && !r.IsDeleted {
				return r.RegistrationID
			}
		}
	}
	t.Fatalf("no service worker registration for %s within 60 s of ServiceWorker.enable", scope)
	return ""
}
