package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/web"
)

// TestLoginRefusesHostileOrigins: a login form posted from a sandboxed
// frame ("null"), another port of the same host or a look-alike host is
// refused and sets no cookie.
func TestLoginRefusesHostileOrigins(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	u, _ := url.Parse(f.srv.URL)
	for _, origin := range []string{
		"null",
		"http://" + u.Hostname() + ":1",
		"http://" + u.Host + ".evil.example",
		"http://evil.example/" + u.Host,
		"%zz",
	} {
		req, _ := http.NewRequest("POST", f.srv.URL+"/login", strings.NewReader(url.Values{"token": {f.readerToken}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		if a := f.do(t, f.client(t), req); a.code != http.StatusForbidden || a.header.Get("Set-Cookie") != "" {
			t.Errorf("login with Origin %q: %d %v", origin, a.code, a.header)
		}
	}
}

// TestOwnerActBackStaysLocal: whatever the back field holds, the act's 303
// stays on this site (no scheme, no host, no scheme-relative path).
func TestOwnerActBackStaysLocal(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	tok := f.csrf(t, owner, "/admin")
	for _, b := range []string{
		"//evil.example/x",
		"/\\evil.example/x",
		"\\\\evil.example",
		"/admin\r\nSet-Cookie: mb_session=x",
		"/admin/../..//evil.example/x",
		"/admin/..%2f..%2f%2fevil.example",
		"javascript:alert(1)//admin",
		" /admin",
	} {
		a := f.postForm(t, owner, "/admin/lanes/comix/resume", url.Values{"csrf": {tok}, "back": {b}})
		loc := a.header.Get("Location")
		l, err := url.Parse(loc)
		if a.code != http.StatusSeeOther || err != nil || l.Scheme != "" || l.Host != "" ||
			!strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.ContainsAny(loc, "\\\r\n") {
			t.Errorf("back %q: %d Location %q", b, a.code, loc)
		}
	}
}

// TestCSRFOfAnotherSessionRefused: a csrf value taken from one session (a
// Reader's page) does not pass in another (the Owner's).
func TestCSRFOfAnotherSessionRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	reader := f.login(t, f.readerToken)
	stolen := f.csrf(t, reader, "/")
	owner := f.login(t, f.ownerToken)
	if a := f.postForm(t, owner, "/admin/lanes/mangapill/pause", url.Values{"csrf": {stolen}, "for": {"3600"}}); a.code != http.StatusForbidden {
		t.Fatalf("owner act with a Reader's csrf: %d", a.code)
	}
	if l := f.apiLanes(t)[4]; l.PauseReason != "" || l.PausedUntil != nil {
		t.Fatalf("a refused act paused the Lane: %+v", l)
	}
}

// TestLoginLinkRefusesExpiredRevokedAndGuessed: an expired link, a link
// whose token was revoked and made-up codes all answer 401 without a
// session.
func TestLoginLinkRefusesExpiredRevokedAndGuessed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	var tokID int64
	_ = f.st.Pool().QueryRow(ctx, `SELECT t.id FROM tokens t JOIN readers r ON r.id = t.reader_id WHERE r.discord_id = '100'`).Scan(&tokID)
	expired, err := web.CreateLoginLink(ctx, f.st, tokID, f.clock.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := web.CreateLoginLink(ctx, f.st, tokID, f.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(2 * time.Minute)
	if a := f.get(t, f.client(t), expired); a.code != http.StatusUnauthorized || a.header.Get("Set-Cookie") != "" {
		t.Fatalf("expired link: %d %v", a.code, a.header)
	}
	if err := f.st.RevokeToken(ctx, tokID, f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{revoked, "/login/once/x", "/login/once/" + strings.Repeat("A", 4000), "/login/once/%00%27%3B"} {
		if a := f.get(t, f.client(t), p); a.code != http.StatusUnauthorized || a.header.Get("Set-Cookie") != "" {
			t.Errorf("GET %.40s: %d %v", p, a.code, a.header)
		}
	}
}

// TestQueryStringsAreNotMarkup: the library's ?q= and ?site= and the
// failing page's query (echoed into its forms' back field) come from a
// link anyone can send; they are shown as text only.
func TestQueryStringsAreNotMarkup(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	evil := `"><script>alert(1)</script><a href="javascript:alert(2)">`
	reader := f.login(t, f.readerToken)
	owner := f.login(t, f.ownerToken)
	pages := []answer{
		f.get(t, reader, "/?q="+url.QueryEscape(evil)),
		f.get(t, reader, "/?site="+url.QueryEscape(evil)),
		f.get(t, owner, "/admin/failing?site=comix&x="+url.QueryEscape(evil)),
		f.get(t, owner, "/admin/failing?site="+url.QueryEscape(evil)),
	}
	for i, a := range pages {
		low := strings.ToLower(a.body)
		if strings.Contains(low, "<script>alert") || strings.Contains(low, `href="javascript:`) {
			t.Errorf("page %d (%d) carries the query as markup", i, a.code)
		}
	}
	if !strings.Contains(pages[0].body, "&#34;&gt;&lt;script&gt;") {
		t.Error("the library's text filter is not shown back as text")
	}
	if !strings.Contains(pages[2].body, `name="back" value="/admin/failing?site=comix&amp;x=`) {
		t.Error("the failing page's back field lost its query")
	}
}

// TestForgedSessionCookieOpensNothing: a made-up, oversized or plain
// session-hash cookie opens no page, no cover and no API route.
func TestForgedSessionCookieOpensNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	u, _ := url.Parse(f.srv.URL)
	for _, v := range []string{"x", strings.Repeat("A", 43), strings.Repeat("A", 5000), "%00'--"} {
		c := f.client(t)
		c.Jar.SetCookies(u, []*http.Cookie{{Name: "mb_session", Value: v, Path: "/"}})
		if a := f.get(t, c, "/"); strings.Contains(a.body, "Your library") || !strings.Contains(a.body, `action="/login"`) {
			t.Errorf("cookie %.20q opened the library: %d", v, a.code)
		}
		if a := f.get(t, c, "/admin"); a.code != http.StatusSeeOther {
			t.Errorf("cookie %.20q on /admin: %d", v, a.code)
		}
		if a := f.get(t, c, "/covers/mangapill/2"); a.code != http.StatusUnauthorized {
			t.Errorf("cookie %.20q on a cover: %d", v, a.code)
		}
	}
}
