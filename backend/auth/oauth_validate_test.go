package auth

import (
	"strings"
	"testing"

	"mangabookmark/backend/store"
)

// TestNewOAuthValidates shows NewOAuth refusing an OAuthConfig the login
// cannot work with, naming the field and never quoting the secret.
func TestNewOAuthValidates(t *testing.T) {
	t.Parallel()
	svc, err := New(Config{Store: &store.Store{}, TokenKey: []byte(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	good := OAuthConfig{ClientID: clientID, ClientSecret: clientSecret, GuildID: guildID, BaseURL: "https://mb.example.org/"}
	for _, tc := range []struct {
		field string
		mod   func(*OAuthConfig)
	}{
		{"ClientID", func(c *OAuthConfig) { c.ClientID = "" }},
		{"ClientSecret", func(c *OAuthConfig) { c.ClientSecret = "" }},
		{"GuildID", func(c *OAuthConfig) { c.GuildID = "" }},
		{"GuildID", func(c *OAuthConfig) { c.GuildID = "my-guild" }},
		{"BaseURL", func(c *OAuthConfig) { c.BaseURL = "" }},
		{"BaseURL", func(c *OAuthConfig) { c.BaseURL = "mb.example.org" }},
		{"BaseURL", func(c *OAuthConfig) { c.BaseURL = "/auth" }},
		{"BaseURL", func(c *OAuthConfig) { c.BaseURL = "ftp://mb.example.org" }},
		{"BaseURL", func(c *OAuthConfig) { c.BaseURL = "https://" + clientSecret + "@mb.example.org" }},
	} {
		conf := good
		tc.mod(&conf)
		o, err := NewOAuth(svc, conf)
		if err == nil {
			t.Errorf("%s: NewOAuth accepted %q/%q/%q", tc.field, conf.ClientID, conf.GuildID, conf.BaseURL)
			continue
		}
		if o != nil || !strings.Contains(err.Error(), "OAuthConfig."+tc.field) {
			t.Errorf("%s: NewOAuth = %v, %q: want no handler and an error naming OAuthConfig.%s", tc.field, o, err, tc.field)
		}
		if strings.Contains(err.Error(), clientSecret) {
			t.Errorf("%s: error quotes the client secret: %q", tc.field, err)
		}
	}
	if _, err := NewOAuth(nil, good); err == nil {
		t.Error("NewOAuth accepted a nil token service")
	}
	o, err := NewOAuth(svc, good)
	if err != nil {
		t.Fatal(err)
	}
	if got := o.oauth2Config().RedirectURL; got != "https://mb.example.org"+CallbackPath {
		t.Errorf("redirect %q", got)
	}
}
