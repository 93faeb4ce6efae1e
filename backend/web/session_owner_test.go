package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
)

// Under https the session cookie carries the __Host- prefix (Secure, no
// Domain, Path=/), so a sibling subdomain cannot plant or shadow it; the
// old name is not read there.
func TestSessionCookieHostPrefixUnderHTTPS(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://manga.example.org")
	req, _ := http.NewRequest("POST", f.srv.URL+"/login", strings.NewReader(url.Values{"token": {f.readerToken}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://manga.example.org")
	a := f.do(t, f.client(t), req)
	var got *http.Cookie
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if strings.Contains(c.Name, "mb_session") {
			got = c
		}
	}
	if a.code != http.StatusSeeOther || got == nil || got.Name != auth.SessionCookieHost || !got.Secure || got.Domain != "" || got.Path != "/" {
		t.Fatalf("login under https: %d cookie %+v, want %s, Secure, host-only, Path=/", a.code, got, auth.SessionCookieHost)
	}
	page := func(name, value string) int {
		req, _ := http.NewRequest("GET", f.srv.URL+"/covers/mangapill/2", nil)
		req.AddCookie(&http.Cookie{Name: name, Value: value})
		return f.do(t, &http.Client{}, req).code
	}
	if code := page(auth.SessionCookieHost, got.Value); code != http.StatusOK {
		t.Fatalf("cover with the __Host- cookie: %d", code)
	}
	if code := page(auth.SessionCookie, got.Value); code != http.StatusUnauthorized {
		t.Fatalf("cover with the unprefixed name under https: %d, want 401", code)
	}
}

// The covers path reads the cookie through the same owner as the pages:
// an oversized value is not looked up, and a used session slides.
func TestCoversPathCapsAndSlidesTheSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	u, _ := url.Parse(f.srv.URL)
	var id string
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == auth.SessionCookie {
			id = ck.Value
		}
	}
	if id == "" {
		t.Fatal("no session cookie after login")
	}
	ctx := context.Background()
	before, err := f.st.SessionByHash(ctx, store.SessionHash(id), f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(2 * time.Hour)
	if a := f.get(t, c, "/covers/mangapill/2"); a.code != http.StatusOK || !strings.Contains(a.header.Get("Set-Cookie"), auth.SessionCookie) {
		t.Fatalf("cover two hours on: %d, Set-Cookie %q (want the session slid)", a.code, a.header.Get("Set-Cookie"))
	}
	after, err := f.st.SessionByHash(ctx, store.SessionHash(id), f.clock.Now())
	if err != nil || !after.ExpiresAt.After(before.ExpiresAt) {
		t.Fatalf("session end %v -> %v (%v): the covers path did not slide it", before.ExpiresAt, after.ExpiresAt, err)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+"/covers/mangapill/2", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: id + strings.Repeat("A", auth.MaxSessionIDLen)})
	if a := f.do(t, &http.Client{}, req); a.code != http.StatusUnauthorized {
		t.Fatalf("an oversized cookie: %d, want 401", a.code)
	}
}
