package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
)

func TestFromConfig(t *testing.T) {
	t.Parallel()
	svc, h, err := FromConfig(&store.Store{}, config.Config{TokenKey: []byte(testKey), OwnerDiscordID: ownerID}, nil)
	if err != nil || svc == nil || h != nil || svc.OwnerDiscordID() != ownerID {
		t.Fatalf("without Discord: %v %v %v", svc, h, err)
	}
	_, h, _ = FromConfig(&store.Store{}, config.Config{TokenKey: []byte(testKey), DiscordClientID: clientID,
		DiscordClientSecret: clientSecret, DiscordGuildID: guildID, PublicBaseURL: "https://mb.example.org"}, nil)
	if h == nil {
		t.Fatal("no Discord login with Discord configured")
	}
	rec := httptest.NewRecorder()
	if err := h.Begin(rec, httptest.NewRequest("GET", LoginPath, nil)); err != nil {
		t.Fatal(err)
	}
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusFound || !strings.HasPrefix(loc, "https://discord.com/oauth2/authorize?") ||
		!strings.Contains(loc, "redirect_uri=https%3A%2F%2Fmb.example.org%2Fauth%2Fdiscord%2Fcallback") ||
		!strings.Contains(loc, "scope=identify+guilds") || strings.Contains(loc, clientSecret) {
		t.Fatalf("login redirect %d %s", rec.Code, loc)
	}
	if c := rec.Result().Cookies(); len(c) != 1 || !c[0].Secure || !c[0].HttpOnly {
		t.Fatalf("state cookie over https: %+v", c)
	}
}
