package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// POST /login with neither Origin nor Sec-Fetch-Site was taken (login
// CSRF from a client that strips Origin); now it needs one of them to say
// this site.
func TestLoginNeedsOriginOrSameOriginFetch(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	for _, c := range []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"neither", nil, http.StatusForbidden},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"same-origin fetch", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusSeeOther},
		{"own origin", map[string]string{"Origin": f.srv.URL}, http.StatusSeeOther},
		{"same-origin fetch, foreign Origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"}, http.StatusForbidden},
	} {
		req, _ := http.NewRequest("POST", f.srv.URL+"/login", strings.NewReader(url.Values{"token": {f.readerToken}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range c.hdr {
			req.Header.Set(k, v)
		}
		a := f.do(t, f.client(t), req)
		if a.code != c.want {
			t.Errorf("%s: %d, want %d", c.name, a.code, c.want)
		}
		if c.want == http.StatusForbidden && strings.Contains(a.header.Get("Set-Cookie"), "=") && !strings.Contains(a.header.Get("Set-Cookie"), "Max-Age=0") {
			t.Errorf("%s: a refused login set a cookie: %s", c.name, a.header.Get("Set-Cookie"))
		}
	}
}

// Wrong tokens from one address are throttled: after the burst the next
// wrong token is 429, and the bucket refills.
func TestFailedLoginsAreThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wrong := "mb_" + strings.Repeat("x", 43)
	try := func(token string) answer {
		return f.postForm(t, f.client(t), "/login", url.Values{"token": {token}})
	}
	for i := 0; i < 10; i++ {
		if code := try(wrong).code; code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d, want 401", i, code)
		}
	}
	for i := 0; i < 3; i++ {
		a := try(wrong)
		if a.code != http.StatusTooManyRequests {
			t.Fatalf("wrong token %d after 10 wrong tokens: %d, want 429", i, a.code)
		}
		if a.header.Get("Retry-After") == "" {
			t.Fatalf("wrong token %d after 10 wrong tokens: 429 without Retry-After", i)
		}
	}
	f.clock.Add(time.Minute)
	if code := try(wrong).code; code != http.StatusUnauthorized {
		t.Fatalf("a minute later: %d, want the wrong token checked again (401)", code)
	}
	if code := try(f.readerToken).code; code != http.StatusSeeOther {
		t.Fatalf("a minute later: %d, want the login to go through", code)
	}
}

// Behind the TLS proxy every client shares one address: a stranger's wrong
// tokens block the address, yet a Reader's valid token still logs in from
// it, and the stranger's next wrong token is still 429.
func TestValidTokenLogsInFromBlockedAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	wrong := "mb_" + strings.Repeat("x", 43)
	try := func(token string) int {
		return f.postForm(t, f.client(t), "/login", url.Values{"token": {token}}).code
	}
	for i := 0; i < 10; i++ {
		if code := try(wrong); code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d, want 401", i, code)
		}
	}
	if code := try(wrong); code != http.StatusTooManyRequests {
		t.Fatalf("after 10 wrong tokens: %d, want 429", code)
	}
	if code := try(f.readerToken); code != http.StatusSeeOther {
		t.Fatalf("valid token from the blocked address: %d, want the login to go through", code)
	}
	if code := try(wrong); code != http.StatusTooManyRequests {
		t.Fatalf("wrong token after a valid login: %d, want 429 still", code)
	}
}
