package web_test

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/png"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/store"
)

// subscriptionJSON is PushSubscription.toJSON() of a browser at endpoint.
func subscriptionJSON(t testing.TB, endpoint string) string {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	b, _ := json.Marshal(map[string]any{"endpoint": endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
			"auth": base64.RawURLEncoding.EncodeToString(auth)}})
	return string(b)
}

func TestManifestIsValidWithIconsThatExist(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.client(t)
	a := f.get(t, c, "/manifest.webmanifest")
	if a.code != 200 || a.header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q", a.code, a.header.Get("Content-Type"))
	}
	var m struct {
		Name      string `json:"name"`
		ShortName string `json:"short_name"`
		StartURL  string `json:"start_url"`
		Scope     string `json:"scope"`
		Display   string `json:"display"`
		Icons     []struct {
			Src, Sizes, Type, Purpose string
		} `json:"icons"`
	}
	dec := json.NewDecoder(strings.NewReader(a.body))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("the manifest is not JSON: %v", err)
	}
	if m.Name == "" || m.ShortName == "" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Fatalf("manifest %+v", m)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		got := f.get(t, c, ic.Src)
		if got.code != 200 || got.header.Get("Content-Type") != ic.Type {
			t.Fatalf("icon %s: %d %q", ic.Src, got.code, got.header.Get("Content-Type"))
		}
		img, err := png.Decode(bytes.NewReader([]byte(got.body)))
		if err != nil {
			t.Fatalf("icon %s is no PNG: %v", ic.Src, err)
		}
		b := img.Bounds()
		if want := ic.Sizes; want != strconv.Itoa(b.Dx())+"x"+strconv.Itoa(b.Dy()) {
			t.Fatalf("icon %s is %dx%d, the manifest says %s", ic.Src, b.Dx(), b.Dy(), want)
		}
		sizes[ic.Sizes] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Fatalf("an installable app needs 192 and 512 pixel icons: %v", sizes)
	}
	sw := f.get(t, c, "/sw.js")
	if sw.code != 200 || !strings.HasPrefix(sw.header.Get("Content-Type"), "text/javascript") || sw.header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/sw.js: %d %v", sw.code, sw.header)
	}
	for _, want := range []string{`addEventListener("push"`, "showNotification", `addEventListener("notificationclick"`, "openWindow"} {
		if !strings.Contains(sw.body, want) {
			t.Errorf("/sw.js lacks %s", want)
		}
	}
	// The pages link the manifest, and the CSP lets it, the worker and the
	// key fetch load.
	page := f.get(t, c, "/")
	if !strings.Contains(page.body, `<link rel="manifest" href="/manifest.webmanifest">`) {
		t.Fatal("the page does not link the manifest")
	}
	csp := page.header.Get("Content-Security-Policy")
	for _, want := range []string{"manifest-src 'self'", "worker-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
}

func TestPushSessionFormsNeedCSRFAndCheckTheEndpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/notices")
	if !strings.Contains(page.body, `id="push-enable"`) || !strings.Contains(page.body, `id="push" class="card push" hidden data-csrf="`) {
		t.Fatal("the notices page has no notifications card")
	}
	csrf := f.csrf(t, c, "/notices")
	const endpoint = "https://93.184.215.14/wpush/v2/web"
	sub := subscriptionJSON(t, endpoint)
	if a := f.postForm(t, c, "/notices/push/subscribe", url.Values{"subscription": {sub}}); a.code != http.StatusForbidden {
		t.Fatalf("subscribe without csrf: %d", a.code)
	}
	if a := f.postForm(t, c, "/notices/push/subscribe", url.Values{"subscription": {sub}, "csrf": {"forged"}}); a.code != http.StatusForbidden {
		t.Fatalf("subscribe with a wrong csrf: %d", a.code)
	}
	if a := f.postForm(t, f.client(t), "/notices/push/subscribe", url.Values{"subscription": {sub}, "csrf": {csrf}}); a.code != http.StatusSeeOther {
		t.Fatalf("subscribe without a session: %d", a.code)
	}
	if n := count(t, f.st, `SELECT count(*) FROM push_subscriptions`); n != 0 {
		t.Fatalf("%d subscriptions stored by refused forms", n)
	}
	// The fixture allows private addresses (its outlets are local), so
	// the private-address refusal is the digest and API tests'; here the
	// form must refuse what is not a browser's subscription at all.
	for name, bad := range map[string]string{
		"scheme": subscriptionJSON(t, "javascript:alert(1)"),
		"file":   subscriptionJSON(t, "file:///etc/passwd"),
		"junk":   "{not json",
		"keys":   `{"endpoint":"https://93.184.215.14/p","keys":{"p256dh":"AAAA","auth":"AAAA"}}`,
	} {
		a := f.postForm(t, c, "/notices/push/subscribe", url.Values{"subscription": {bad}, "csrf": {csrf}})
		var e struct{ Error string }
		if a.code != http.StatusBadRequest || json.Unmarshal([]byte(a.body), &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s, want 400 with a reason", name, a.code, a.body)
		}
	}
	if a := f.postForm(t, c, "/notices/push/subscribe", url.Values{"subscription": {sub}, "csrf": {csrf}}); a.code != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", a.code, a.body)
	}
	if _, err := f.st.GetPushSubscription(ctx, 2, endpoint); err != nil {
		t.Fatalf("the subscription is not the session Reader's: %v", err)
	}
	if a := f.postForm(t, c, "/notices/push/unsubscribe", url.Values{"endpoint": {endpoint}}); a.code != http.StatusForbidden {
		t.Fatalf("unsubscribe without csrf: %d", a.code)
	}
	if a := f.postForm(t, c, "/notices/push/unsubscribe", url.Values{"endpoint": {endpoint}, "csrf": {csrf}}); a.code != http.StatusNoContent {
		t.Fatalf("unsubscribe: %d %s", a.code, a.body)
	}
	if _, err := f.st.GetPushSubscription(ctx, 2, endpoint); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("still stored after unsubscribe: %v", err)
	}
}

func count(t testing.TB, st *store.Store, q string) int {
	t.Helper()
	var n int
	if err := st.Pool().QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
