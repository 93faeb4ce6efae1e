package auth

import (
	"context"
	"net/http"
	"testing"

	"mangabookmark/backend/store"
)

// TestElevenLoginsLeaveTenTokens is the review's B5-1 as an attack: every
// Discord login mints a token, so a Reader logging in 11 times would hold
// 11 budgets' worth of tokens. A Reader keeps store.MaxLiveTokens (10):
// the 11th login revokes the first token, which is refused at once (the
// authentication cache forgets it), and the other ten still work.
func TestElevenLoginsLeaveTenTokens(t *testing.T) {
	t.Parallel()
	e := newLoginEnv(t)
	e.discord.loginAs("300000000000000042", guildID)
	var toks []string
	for i := range store.MaxLiveTokens + 1 {
		_, page := get(t, browser(t), e.api.URL+LoginPath)
		m := tokenInPage.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("login %d: no token on the page: %s", i+1, page)
		}
		toks = append(toks, m[1])
		if i == 0 { // the first token is used, so it sits in the cache
			if code, body := me(t, e, m[1]); code != http.StatusOK {
				t.Fatalf("the first token before the cap: %d %s", code, body)
			}
		}
	}
	if code, _ := me(t, e, toks[0]); code != http.StatusUnauthorized {
		t.Fatalf("the first token after 11 logins: %d, want 401", code)
	}
	for i, tok := range toks[1:] {
		if code, body := me(t, e, tok); code != http.StatusOK {
			t.Fatalf("token %d of the last ten: %d %s", i+2, code, body)
		}
	}
	var live int
	if err := e.svc.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM tokens t JOIN readers r ON r.id = t.reader_id
		WHERE r.discord_id = '300000000000000042' AND t.revoked_at IS NULL`).Scan(&live); err != nil {
		t.Fatal(err)
	}
	if live != store.MaxLiveTokens {
		t.Fatalf("%d live tokens, want %d", live, store.MaxLiveTokens)
	}
}
