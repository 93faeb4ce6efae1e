package anilist

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

const (
	clientSecret = "sekrit-client-secret"
	baseURL      = "https://manga.example.org"
)

var tokenKey = []byte(strings.Repeat("k", 32))

// connectWorld is the stand-in with a registered client and the Connect
// flow pointed at it.
func connectWorld(t *testing.T, now func() time.Time) (*anilisttest.Server, *OAuth, string) {
	t.Helper()
	s := anilisttest.New(anilisttest.Config{ClientID: "4242", ClientSecret: clientSecret,
		RedirectURL: baseURL + CallbackPath, ApproveAs: "reader"})
	s.AddUser("reader")
	origin := newServer(t, s)
	states, err := trackers.NewStates(trackers.StatesConfig{TokenKey: tokenKey, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOAuth(OAuthConfig{ClientID: "4242", ClientSecret: clientSecret, BaseURL: baseURL + "/", States: states, Origin: origin})
	if err != nil {
		t.Fatal(err)
	}
	return s, o, origin
}

// approve follows the authorize URL to the stand-in's redirect and
// returns the callback's query.
func approve(t *testing.T, authorize string) url.Values {
	t.Helper()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(authorize)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), baseURL+CallbackPath+"?") {
		t.Fatalf("authorize answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query()
}

// TestOAuthConnect: the authorize URL carries the client id, the
// registered redirect, response_type code and a state; the callback's
// code trades for a token AniList then accepts.
func TestOAuthConnect(t *testing.T) {
	t.Parallel()
	s, o, origin := connectWorld(t, nil)
	if o.RedirectURL() != baseURL+"/trackers/anilist/callback" {
		t.Fatalf("redirect %q", o.RedirectURL())
	}
	authorize, err := o.AuthorizeURL("session-1")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(authorize)
	q := u.Query()
	if u.Path != authorizePath || q.Get("client_id") != "4242" || q.Get("redirect_uri") != o.RedirectURL() ||
		q.Get("response_type") != "code" || q.Get("state") == "" || strings.Contains(authorize, clientSecret) {
		t.Fatalf("authorize URL %s", authorize)
	}
	back := approve(t, authorize)
	token, err := o.Complete(t.Context(), "session-1", back.Get("state"), back.Get("code"))
	if err != nil || token == "" {
		t.Fatalf("Complete: %q, %v", token, err)
	}
	e := newEnv(t, origin, 0)
	if a, err := e.client.Viewer(t.Context(), token); err != nil || a.Name != "reader" {
		t.Fatalf("the new token: %+v, %v", a, err)
	}
	if s.Requests(trackers.KindToken) != 1 {
		t.Fatalf("%d token requests", s.Requests(trackers.KindToken))
	}
}

// TestOAuthRefusesWrongState: a callback whose state another session (or
// nobody) made is refused with ErrBadState before any code exchange.
func TestOAuthRefusesWrongState(t *testing.T) {
	t.Parallel()
	s, o, _ := connectWorld(t, nil)
	authorize, _ := o.AuthorizeURL("session-1")
	back := approve(t, authorize)
	for name, state := range map[string]string{"another session's": back.Get("state"), "none": "", "forged": "AAAA"} {
		session := "session-2"
		if name != "another session's" {
			session = "session-1"
		}
		if _, err := o.Complete(t.Context(), session, state, back.Get("code")); !errors.Is(err, trackers.ErrBadState) {
			t.Errorf("%s state: %v, want ErrBadState", name, err)
		}
	}
	if n := s.Requests(trackers.KindToken); n != 0 {
		t.Fatalf("%d code exchanges after a wrong state", n)
	}
}

// TestOAuthStateExpires: a state older than ten minutes is refused.
func TestOAuthStateExpires(t *testing.T) {
	t.Parallel()
	now := t0
	s, o, _ := connectWorld(t, func() time.Time { return now })
	authorize, _ := o.AuthorizeURL("session-1")
	back := approve(t, authorize)
	now = now.Add(trackers.DefaultStateTTL)
	if _, err := o.Complete(t.Context(), "session-1", back.Get("state"), back.Get("code")); !errors.Is(err, trackers.ErrBadState) {
		t.Fatalf("expired state: %v", err)
	}
	if s.Requests(trackers.KindToken) != 0 {
		t.Fatal("an expired state reached the code exchange")
	}
}

// TestOAuthCodeRefused: a used code, or a client AniList does not know,
// is ErrCodeRefused; no error quotes the secret or the code's answer.
func TestOAuthCodeRefused(t *testing.T) {
	t.Parallel()
	_, o, origin := connectWorld(t, nil)
	authorize, _ := o.AuthorizeURL("s")
	back := approve(t, authorize)
	if _, err := o.Complete(t.Context(), "s", back.Get("state"), back.Get("code")); err != nil {
		t.Fatal(err)
	}
	_, err := o.Complete(t.Context(), "s", back.Get("state"), back.Get("code"))
	if !errors.Is(err, trackers.ErrCodeRefused) || strings.Contains(err.Error(), back.Get("code")) {
		t.Fatalf("used code: %v", err)
	}
	states, _ := trackers.NewStates(trackers.StatesConfig{TokenKey: tokenKey})
	wrong, _ := NewOAuth(OAuthConfig{ClientID: "4242", ClientSecret: "sekrit-wrong", BaseURL: baseURL, States: states, Origin: origin})
	authorize, _ = wrong.AuthorizeURL("s")
	back = approve(t, authorize)
	_, err = wrong.Complete(t.Context(), "s", back.Get("state"), back.Get("code"))
	if !errors.Is(err, trackers.ErrCodeRefused) || strings.Contains(err.Error(), "sekrit") {
		t.Fatalf("wrong secret: %v", err)
	}
}

// TestOAuthTokenAnswer: the documented token answer reads; one without
// an access_token is ErrBadAnswer.
func TestOAuthTokenAnswer(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]error{"token.json": nil, `{"token_type":"Bearer"}`: trackers.ErrBadAnswer, `<html>`: trackers.ErrBadAnswer} {
		f := &fixture{status: http.StatusOK, body: loadFixture(t, body)}
		origin := newServer(t, f)
		states, _ := trackers.NewStates(trackers.StatesConfig{TokenKey: tokenKey})
		o, err := NewOAuth(OAuthConfig{ClientID: "1", ClientSecret: clientSecret, BaseURL: baseURL, States: states, Origin: origin})
		if err != nil {
			t.Fatal(err)
		}
		state, _ := states.Make(Name, "s")
		tok, err := o.Complete(t.Context(), "s", state, "code")
		if !errors.Is(err, want) || (want == nil && !strings.HasPrefix(tok, "eyJ")) {
			t.Errorf("%s: %q, %v", body, tok, err)
		}
		reqs := f.requests()
		if len(reqs) != 1 || reqs[0].Body["grant_type"] != "authorization_code" || reqs[0].Body["client_secret"] != clientSecret ||
			reqs[0].Body["redirect_uri"] != baseURL+CallbackPath || reqs[0].Body["code"] != "code" {
			t.Errorf("%s: token request %+v", body, reqs)
		}
	}
}

func TestNewOAuthValidates(t *testing.T) {
	t.Parallel()
	states, _ := trackers.NewStates(trackers.StatesConfig{TokenKey: tokenKey})
	good := OAuthConfig{ClientID: "1", ClientSecret: clientSecret, BaseURL: baseURL, States: states}
	for name, mutate := range map[string]func(*OAuthConfig){
		"no client id":      func(c *OAuthConfig) { c.ClientID = "" },
		"client id letters": func(c *OAuthConfig) { c.ClientID = "abc" },
		"no secret":         func(c *OAuthConfig) { c.ClientSecret = "" },
		"no states":         func(c *OAuthConfig) { c.States = nil },
		"relative base":     func(c *OAuthConfig) { c.BaseURL = "/x" },
		"bad origin":        func(c *OAuthConfig) { c.Origin = "http://h/path" },
	} {
		c := good
		mutate(&c)
		_, err := NewOAuth(c)
		if err == nil {
			t.Errorf("%s accepted", name)
		} else if strings.Contains(err.Error(), "sekrit") {
			t.Errorf("%s: error quotes the secret: %v", name, err)
		}
	}
	if _, err := NewOAuth(good); err != nil {
		t.Fatal(err)
	}
}
