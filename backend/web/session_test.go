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
	"mangabookmark/backend/web"
)

func sessionCookie(t *testing.T, h http.Header) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == auth.SessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", auth.SessionCookie, h)
	return nil
}

func TestLoginPageWithoutSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	a := f.get(t, f.client(t), "/")
	if a.code != http.StatusOK || !strings.Contains(a.body, `action="/login"`) || !strings.Contains(a.body, `name="token"`) {
		t.Fatalf("GET / without a session: %d %s", a.code, a.body)
	}
	if strings.Contains(a.body, "/auth/discord/login") {
		t.Fatal("Discord button shown while Discord login is off")
	}
	f.pages.OAuth = &auth.OAuth{} // only the button is asked for
	if a := f.get(t, f.client(t), "/"); !strings.Contains(a.body, `href="/auth/discord/login"`) {
		t.Fatalf("no Discord button with Discord login on: %s", a.body)
	}
}

func TestLoginWithToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	a := f.postForm(t, f.client(t), "/login", url.Values{"token": {"mb_" + strings.Repeat("x", 43)}})
	if a.code != http.StatusUnauthorized || !strings.Contains(a.body, "unknown or revoked") || a.header.Get("Set-Cookie") != "" {
		t.Fatalf("wrong token: %d %v %s", a.code, a.header, a.body)
	}
	a = f.postForm(t, f.client(t), "/login", url.Values{"token": {f.readerToken}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("good token: %d %s", a.code, a.body)
	}
	c := sessionCookie(t, a.header)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/" || c.MaxAge != int(web.SessionTTL/time.Second) || len(c.Value) < 40 {
		t.Fatalf("cookie %+v", c)
	}
	// The id is stored only hashed.
	var n int
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM web_sessions WHERE id_hash = $1`, store.SessionHash(c.Value)).Scan(&n)
	var plain int
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM web_sessions WHERE id_hash = $1`, []byte(c.Value)).Scan(&plain)
	if n != 1 || plain != 0 {
		t.Fatalf("stored sessions by hash %d, by plain id %d", n, plain)
	}
}

func TestLoginFromAnotherOriginRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	req, _ := http.NewRequest("POST", f.srv.URL+"/login", strings.NewReader(url.Values{"token": {f.readerToken}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	if a := f.do(t, f.client(t), req); a.code != http.StatusForbidden || a.header.Get("Set-Cookie") != "" {
		t.Fatalf("cross-origin login: %d %v", a.code, a.header)
	}
	req, _ = http.NewRequest("POST", f.srv.URL+"/login", strings.NewReader(url.Values{"token": {f.readerToken}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.srv.URL)
	if a := f.do(t, f.client(t), req); a.code != http.StatusSeeOther {
		t.Fatalf("same-origin login: %d", a.code)
	}
}

func TestSecureCookieUnderHTTPS(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "https://manga.example.org")
	a := f.postForm(t, f.client(t), "/login", url.Values{"token": {f.readerToken}})
	if c := sessionCookie(t, a.header); !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
		t.Fatalf("cookie under https: %+v", c)
	}
}

func TestLogoutEndsSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	if a := f.postForm(t, c, "/logout", url.Values{}); a.code != http.StatusForbidden {
		t.Fatalf("logout without csrf: %d", a.code)
	}
	if a := f.get(t, c, "/"); !strings.Contains(a.body, "Your library") {
		t.Fatal("a refused logout ended the session")
	}
	u, _ := url.Parse(f.srv.URL)
	old := c.Jar.Cookies(u)
	a := f.postForm(t, c, "/logout", url.Values{"csrf": {tok}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" || sessionCookie(t, a.header).MaxAge >= 0 {
		t.Fatalf("logout: %d %v", a.code, a.header)
	}
	// The old cookie, replayed, no longer opens the library.
	replay := f.client(t)
	replay.Jar.SetCookies(u, old)
	if a := f.get(t, replay, "/"); strings.Contains(a.body, "Your library") || !strings.Contains(a.body, `action="/login"`) {
		t.Fatal("a logged-out session still opens the library")
	}
	var n int
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM web_sessions`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d sessions left after logout", n)
	}
}

func TestSessionExpiresAndSlides(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	for i := 0; i < 3; i++ { // 60 days of visits 20 days apart: sliding keeps it
		f.clock.Add(20 * 24 * time.Hour)
		if a := f.get(t, c, "/"); !strings.Contains(a.body, "Your library") {
			t.Fatalf("visit %d after 20 days: session gone", i+1)
		}
	}
	f.clock.Add(web.SessionTTL + time.Minute)
	if a := f.get(t, c, "/"); a.code != http.StatusOK || !strings.Contains(a.body, `action="/login"`) {
		t.Fatalf("after 30 idle days: %d, want the login page", a.code)
	}
	if a := f.get(t, c, "/admin/failing"); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("expired session on a page: %d", a.code)
	}
}

func TestRevokingTheTokenEndsItsSessions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	if err := f.svc.RevokeToken(context.Background(), f.readerTokID); err != nil {
		t.Fatal(err)
	}
	if a := f.get(t, c, "/"); strings.Contains(a.body, "Your library") {
		t.Fatal("the session outlived its revoked token")
	}
	a := f.postForm(t, f.client(t), "/login", url.Values{"token": {f.readerToken}})
	if a.code != http.StatusUnauthorized {
		t.Fatalf("login with a revoked token: %d", a.code)
	}
}

func TestLoginLinkWorksOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	var tokID int64
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT t.id FROM tokens t JOIN readers r ON r.id = t.reader_id WHERE r.discord_id = '100'`).Scan(&tokID)
	path, err := web.CreateLoginLink(context.Background(), f.st, tokID, f.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	c := f.client(t)
	a := f.get(t, c, path)
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("login link: %d %s", a.code, a.body)
	}
	if a := f.get(t, c, "/admin"); a.code != http.StatusOK {
		t.Fatalf("owner after the login link: %d", a.code)
	}
	if a := f.get(t, f.client(t), path); a.code != http.StatusUnauthorized {
		t.Fatalf("second use of the link: %d", a.code)
	}
}
