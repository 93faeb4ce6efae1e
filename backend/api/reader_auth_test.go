package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestMeAndOwnerFlag(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	reader := e.token("200000000000000002")
	owner := e.token(ownerID)
	for _, c := range []struct {
		tok   string
		id    string
		owner bool
	}{{reader, "200000000000000002", false}, {owner, ownerID, true}} {
		code, body := e.do(c.tok, "GET", "/api/me", "")
		if code != http.StatusOK {
			t.Fatalf("me: %d %s", code, body)
		}
		var me struct {
			DiscordID string `json:"discord_id"`
			Name      string `json:"name"`
			Owner     bool   `json:"owner"`
		}
		if err := json.Unmarshal(body, &me); err != nil {
			t.Fatal(err)
		}
		if me.DiscordID != c.id || me.Owner != c.owner || me.Name == "" {
			t.Errorf("me = %+v, want id %s owner %v", me, c.id, c.owner)
		}
	}
}

func TestTokensRefused(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	good := e.token("200000000000000002")
	revoked := e.token("200000000000000003")
	toks, err := e.auth.ListTokens(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range toks {
		if tk.DiscordID == "200000000000000003" {
			if err := e.auth.RevokeToken(context.Background(), tk.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	unknown := "mb_" + strings.Repeat("A", 43)
	for name, tok := range map[string]string{
		"missing":   "",
		"unknown":   unknown,
		"malformed": "not-a-token",
		"revoked":   revoked,
		"altered":   good[:len(good)-1] + flip(good[len(good)-1]),
	} {
		code, body := e.do(tok, "GET", "/api/bookmarks", "")
		if code != http.StatusUnauthorized {
			t.Errorf("%s token: %d %s, want 401", name, code, body)
		}
		if !strings.Contains(string(body), `"error"`) {
			t.Errorf("%s token: body %s lacks error", name, body)
		}
	}
	if code, body := e.do(good, "GET", "/api/bookmarks", ""); code != http.StatusOK {
		t.Fatalf("good token: %d %s", code, body)
	}
	// Neither the good, the revoked nor the unknown token, nor TOKEN_KEY,
	// reaches a log line (the minting and revoking above did log).
	logs := e.logs.String()
	if !strings.Contains(logs, "token minted") || !strings.Contains(logs, "token revoked") {
		t.Fatalf("expected log lines missing:\n%s", logs)
	}
	for _, secret := range []string{good[3:], revoked[3:], unknown[3:], testTokenKey} {
		if strings.Contains(logs, secret) {
			t.Errorf("log holds a secret:\n%s", logs)
		}
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestReaderTokenOnAdminPathIs403(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	reader := e.token("200000000000000002")
	owner := e.token(ownerID)
	if code, body := e.do(reader, "GET", "/api/admin/notices", ""); code != http.StatusForbidden {
		t.Fatalf("reader on admin: %d %s, want 403", code, body)
	}
	if code, body := e.do(owner, "GET", "/api/admin/notices", ""); code == http.StatusForbidden || code == http.StatusUnauthorized {
		t.Fatalf("owner on admin: %d %s", code, body)
	}
	if code, _ := e.do("", "GET", "/api/admin/notices", ""); code != http.StatusUnauthorized {
		t.Fatalf("no token on admin: %d, want 401", code)
	}
}
