package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store/dbtest"
)

const (
	testKey      = "oauth-test-token-key-0123456789abcdef"
	clientID     = "555000111"
	clientSecret = "client-secret-DO-NOT-LOG-7f3a"
	guildID      = "900000000000000009"
	ownerID      = "100000000000000001"
	accessToken  = "access-token-DO-NOT-LOG-91bc"
)

// fakeDiscord plays Discord's authorize, token and user endpoints. The
// authorize endpoint sends the browser straight back with a code, as
// Discord does after the user clicks Authorize.
type fakeDiscord struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	user   string   // Discord id of whoever logs in next
	guilds []string // their guilds
	codes  map[string]string
	failTo bool // the token endpoint refuses
}

func newFakeDiscord(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{t: t, codes: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth2/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != clientID || q.Get("response_type") != "code" || q.Get("scope") != "identify guilds" || q.Get("state") == "" {
			http.Error(w, "bad authorize request: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		code := fmt.Sprintf("code-DO-NOT-LOG-%d", len(f.codes)+1)
		f.codes[code] = f.user
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		bq := back.Query()
		bq.Set("code", code)
		bq.Set("state", q.Get("state"))
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /api/oauth2/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f.mu.Lock()
		_, ok := f.codes[r.PostForm.Get("code")]
		fail := f.failTo
		f.mu.Unlock()
		if fail || !ok || r.PostForm.Get("client_secret") != clientSecret || r.PostForm.Get("client_id") != clientID {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid_grant","error_description":"code %s and secret %s refused"}`, r.PostForm.Get("code"), r.PostForm.Get("client_secret"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		// The access token encodes which user the code was for.
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600,"scope":"identify guilds"}`, accessToken+"."+f.codes[r.PostForm.Get("code")])
	})
	user := func(r *http.Request) (string, bool) {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "+accessToken+".")
		return tok, ok
	}
	mux.HandleFunc("GET /api/users/@me", func(w http.ResponseWriter, r *http.Request) {
		id, ok := user(r)
		if !ok {
			http.Error(w, "401", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "username": "user" + id[len(id)-2:], "global_name": "Reader " + id[len(id)-2:]})
	})
	mux.HandleFunc("GET /api/users/@me/guilds", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := user(r); !ok {
			http.Error(w, "401", http.StatusUnauthorized)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		out := []map[string]any{}
		for _, g := range f.guilds {
			out = append(out, map[string]any{"id": g, "name": "guild " + g})
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeDiscord) loginAs(id string, guilds ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user, f.guilds = id, guilds
}

// loginEnv is the real API server with the real token service and OAuth
// handler pointed at the fake Discord, logging JSON into a buffer.
type loginEnv struct {
	discord *fakeDiscord
	svc     *Service
	api     *httptest.Server
	logs    *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newLoginEnv(t *testing.T) *loginEnv {
	t.Helper()
	st := dbtest.New(t)
	e := &loginEnv{discord: newFakeDiscord(t), logs: &syncBuf{}}
	log := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.svc = mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ownerID, Log: log})
	var handler http.Handler
	e.api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(e.api.Close)
	o, err := NewOAuth(e.svc, OAuthConfig{ClientID: clientID, ClientSecret: clientSecret, GuildID: guildID, BaseURL: e.api.URL, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	o.ep = discordEndpoints{AuthURL: e.discord.srv.URL + "/oauth2/authorize", TokenURL: e.discord.srv.URL + "/api/oauth2/token", APIBase: e.discord.srv.URL + "/api"}
	handler = NewSiteServer(st, e.svc, o, ownerID, log, e.api.URL)
	return e
}

// browser is a cookie-keeping client that follows redirects, as a browser.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 20 * time.Second}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var tokenInPage = regexp.MustCompile(`<code class="token" id="token">(mb_[A-Za-z0-9_-]{43})</code>`)

func me(t *testing.T, e *loginEnv, tok string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", e.api.URL+"/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestLoginMemberGetsAWorkingToken(t *testing.T) {
	t.Parallel()
	e := newLoginEnv(t)
	e.discord.loginAs("300000000000000042", "1", guildID)
	code, page := get(t, browser(t), e.api.URL+LoginPath)
	if code != http.StatusOK {
		t.Fatalf("login: %d %s", code, page)
	}
	m := tokenInPage.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no token on the page: %s", page)
	}
	if !strings.Contains(page, "Set token…") || strings.Contains(page, "settings") || !strings.Contains(page, "Reader 42") {
		t.Errorf("page lacks the paste instructions or the name: %s", page)
	}
	if !strings.Contains(page, `<link rel="stylesheet" href="/web/style.`) || strings.Contains(page, "<style") || !strings.Contains(page, `href="/userscript/mangabookmark.user.js"`) {
		t.Errorf("the welcome page is not the web layout linking the userscript: %s", page)
	}
	code, body := me(t, e, m[1])
	if code != http.StatusOK || !strings.Contains(body, `"discord_id":"300000000000000042"`) || !strings.Contains(body, `"name":"Reader 42"`) || !strings.Contains(body, `"owner":false`) {
		t.Fatalf("me with the new token: %d %s", code, body)
	}
	// The Owner logging in is the Owner.
	e.discord.loginAs(ownerID, guildID)
	_, page = get(t, browser(t), e.api.URL+LoginPath)
	m = tokenInPage.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("owner: no token: %s", page)
	}
	if _, body := me(t, e, m[1]); !strings.Contains(body, `"owner":true`) {
		t.Fatalf("owner me: %s", body)
	}
	assertNoSecrets(t, e, m[1])
}

func TestLoginNonMemberRefused(t *testing.T) {
	t.Parallel()
	e := newLoginEnv(t)
	e.discord.loginAs("300000000000000043", "1", "2")
	code, page := get(t, browser(t), e.api.URL+LoginPath)
	if code != http.StatusForbidden || tokenInPage.MatchString(page) || strings.Contains(page, "mb_") {
		t.Fatalf("non-member: %d %s", code, page)
	}
	// The refusal is the pages' own layout with the reason in one sentence.
	if !strings.Contains(page, "Ask the Owner for an invite.") || !strings.Contains(page, `<link rel="stylesheet" href="/web/style.`) || strings.Contains(page, "<style") {
		t.Errorf("non-member page is not the web layout with the reason: %s", page)
	}
	toks, err := e.svc.ListTokens(context.Background())
	if err != nil || len(toks) != 0 {
		t.Fatalf("tokens after refusal: %v %v", toks, err)
	}
	assertNoSecrets(t, e, "")
}

func TestLoginBadOrMissingStateRefused(t *testing.T) {
	t.Parallel()
	e := newLoginEnv(t)
	e.discord.loginAs("300000000000000044", guildID)
	c := browser(t)
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(e.api.URL + LoginPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("login redirect: %d %v", resp.StatusCode, err)
	}
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == stateCookie {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.MaxAge <= 0 {
		t.Fatalf("state cookie: %+v", cookie)
	}
	if loc.Query().Get("state") != cookie.Value || loc.Query().Get("redirect_uri") != e.api.URL+CallbackPath {
		t.Fatalf("authorize URL %s does not carry the state and callback", loc)
	}
	// Get a real code for this user from the fake Discord without the
	// callback running.
	resp, err = c.Get(loc.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, _ := url.Parse(resp.Header.Get("Location"))
	realCode := back.Query().Get("code")

	cb := e.api.URL + CallbackPath
	cases := map[string]struct {
		client *http.Client
		query  string
	}{
		"wrong state":   {c, "code=" + realCode + "&state=forged"},
		"missing state": {c, "code=" + realCode},
		"no cookie":     {browser(t), "code=" + realCode + "&state=" + cookie.Value},
		"empty state":   {c, "code=" + realCode + "&state="},
	}
	for name, tc := range cases {
		// Restore the cookie each time: the callback clears it.
		u, _ := url.Parse(e.api.URL)
		if tc.client == c {
			c.Jar.SetCookies(u, []*http.Cookie{{Name: stateCookie, Value: cookie.Value, Path: "/auth/discord/"}})
		}
		code, page := get(t, tc.client, cb+"?"+tc.query)
		if code != http.StatusBadRequest || strings.Contains(page, "mb_") {
			t.Errorf("%s: %d %s", name, code, page)
		}
	}
	// Denied at Discord, with a good state: 403.
	u, _ := url.Parse(e.api.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: stateCookie, Value: cookie.Value, Path: "/auth/discord/"}})
	if code, _ := get(t, c, cb+"?error=access_denied&state="+cookie.Value); code != http.StatusForbidden {
		t.Errorf("denied: %d, want 403", code)
	}
	// The token endpoint refusing (its body quotes the code and secret).
	e.discord.mu.Lock()
	e.discord.failTo = true
	e.discord.mu.Unlock()
	c.Jar.SetCookies(u, []*http.Cookie{{Name: stateCookie, Value: cookie.Value, Path: "/auth/discord/"}})
	if code, _ := get(t, c, cb+"?code="+realCode+"&state="+cookie.Value); code != http.StatusBadGateway {
		t.Errorf("exchange refused: %d, want 502", code)
	}
	toks, err := e.svc.ListTokens(context.Background())
	if err != nil || len(toks) != 0 {
		t.Fatalf("tokens minted on refused callbacks: %v %v", toks, err)
	}
	if !strings.Contains(e.logs.String(), "oauth code exchange failed") {
		t.Fatalf("exchange failure not logged: %s", e.logs.String())
	}
	assertNoSecrets(t, e, "")
}

// assertNoSecrets checks the captured logs hold no secret: the client
// secret, TOKEN_KEY, any authorization code, the access token, or a
// plaintext API token.
func assertNoSecrets(t *testing.T, e *loginEnv, plain string) {
	t.Helper()
	// Use the token on a good and a bad path so those log lines are in.
	if plain != "" {
		me(t, e, plain)
		me(t, e, plain+"x")
	}
	logs := e.logs.String()
	if logs == "" {
		t.Fatal("no log lines captured: the check would be empty")
	}
	for _, secret := range []string{clientSecret, testKey, accessToken, "code-DO-NOT-LOG", "DO-NOT-LOG"} {
		if strings.Contains(logs, secret) {
			t.Errorf("log holds secret %q:\n%s", secret, logs)
		}
	}
	if plain != "" && strings.Contains(logs, plain[3:]) {
		t.Errorf("log holds the API token:\n%s", logs)
	}
	if regexp.MustCompile(`mb_[A-Za-z0-9_-]{20,}`).MatchString(logs) {
		t.Errorf("log holds something token-shaped:\n%s", logs)
	}
}
