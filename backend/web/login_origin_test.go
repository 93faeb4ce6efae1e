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
// attempt is 429 even with the right token, and the bucket refills.
func TestFailedLoginsAreThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	try := func(token string) int {
		return f.postForm(t, f.client(t), "/login", url.Values{"token": {token}}).code
	}
	for i := 0; i < 10; i++ {
		if code := try("mb_" + strings.Repeat("x", 43)); code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d, want 401", i, code)
		}
	}
	if code := try(f.readerToken); code != http.StatusTooManyRequests {
		t.Fatalf("after 10 wrong tokens: %d, want 429", code)
	}
	f.clock.Add(time.Minute)
	if code := try(f.readerToken); code != http.StatusSeeOther {
		t.Fatalf("a minute later: %d, want the login to go through", code)
	}
}
