package auth

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mangabookmark/backend/store/dbtest"
)

// TestDiscordLoginStartsASession: the callback still shows the token once,
// and the same browser then opens its library at / without logging in again.
func TestDiscordLoginStartsASession(t *testing.T) {
	t.Parallel()
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

	e.discord.loginAs("300000000000000042", guildID)
	b := browser(t)
	code, page := get(t, b, e.api.URL+LoginPath)
	m := tokenInPage.FindStringSubmatch(page)
	if code != http.StatusOK || m == nil || !strings.Contains(page, `href="/">Open your library`) {
		t.Fatalf("callback page: %d %s", code, page)
	}
	code, page = get(t, b, e.api.URL+"/")
	if code != http.StatusOK || !strings.Contains(page, "Your library") || !strings.Contains(page, "Reader 42") {
		t.Fatalf("library after the Discord login: %d %s", code, page)
	}
	// The session rests on the minted token: revoking it ends the session.
	toks, _ := e.svc.ListTokens(t.Context())
	if err := e.svc.RevokeToken(t.Context(), toks[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, page = get(t, b, e.api.URL+"/"); strings.Contains(page, "Your library") {
		t.Fatal("the session outlived its revoked token")
	}
	assertNoSecrets(t, e, m[1])
}
