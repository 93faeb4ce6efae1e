package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseURL != DefaultDatabaseURL || c.ListenAddr != DefaultListenAddr || !c.PollEnabled {
		t.Fatalf("defaults: %+v", c)
	}
	if c.PublicBaseURL != "http://127.0.0.1:8080" {
		t.Fatalf("public base url %q", c.PublicBaseURL)
	}
}

func TestRemovedKnobsStopStartup(t *testing.T) {
	t.Parallel()
	for _, knob := range RemovedPaceKnobs {
		t.Run(knob, func(t *testing.T) {
			t.Parallel()
			_, err := Load(env(map[string]string{knob: "30s"}))
			if err == nil {
				t.Fatalf("%s accepted", knob)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Var != knob {
				t.Fatalf("error %v does not name %s", err, knob)
			}
			if !strings.Contains(err.Error(), knob) {
				t.Fatalf("message %q lacks the knob name", err)
			}
		})
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, key, value string
	}{
		{"database url", "DATABASE_URL", "postgres://user:hunter2@host:notaport/db"},
		{"listen addr no port", "LISTEN_ADDR", "localhost"},
		{"listen addr bad port", "LISTEN_ADDR", "127.0.0.1:99999"},
		{"listen addr bad host", "LISTEN_ADDR", "not a host:80"},
		{"public base url", "PUBLIC_BASE_URL", "ftp://x"},
		{"token key short", "TOKEN_KEY", "short-secret-value"},
		{"owner id", "OWNER_DISCORD_ID", "abc"},
		{"webhook", "DISCORD_WEBHOOK_URL", "::not a url::/secret-token"},
		{"browser", "BROWSER_WS_URL", "file:///etc/passwd"},
		{"poll switch", "LATEST_CHAPTER_POLL_ENABLED", "maybe"},
		{"readers webhook", "DISCORD_READERS_WEBHOOK_URL", "::not a url::/secret-token"},
		{"allow private removed", "NOTIFY_ALLOW_PRIVATE", "1"},
		{"allow nets", "NOTIFY_ALLOW_NETS", "192.168.1.0/24,lan"},
		{"allow nets bits", "NOTIFY_ALLOW_NETS", "10.0.0.0/33"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(env(map[string]string{tc.key: tc.value}))
			if err == nil {
				t.Fatalf("%s=%q accepted", tc.key, tc.value)
			}
			if !strings.Contains(err.Error(), tc.key) {
				t.Fatalf("error %q does not name %s", err, tc.key)
			}
		})
	}
}

func TestSecretsNeverInErrors(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{
		"DATABASE_URL":                "postgres://u:hunter2secret@h:bad/db",
		"TOKEN_KEY":                   "tooshort-but-secret",
		"DISCORD_WEBHOOK_URL":         "https://discord.example/api/webhooks/1/sekrit-webhook-token\x7f",
		"DISCORD_CLIENT_SECRET":       "oauth-client-secret",
		"DISCORD_READERS_WEBHOOK_URL": "ftp://discord.example/api/webhooks/2/readers-webhook-token",
	}
	_, err := Load(env(secrets))
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, leak := range []string{"hunter2secret", "tooshort-but-secret", "sekrit-webhook-token", "oauth-client-secret", "readers-webhook-token"} {
		if strings.Contains(err.Error(), leak) {
			t.Errorf("error leaks %q: %v", leak, err)
		}
	}
}

func TestOAuthAllOrNothing(t *testing.T) {
	t.Parallel()
	_, err := Load(env(map[string]string{"DISCORD_CLIENT_ID": "1"}))
	if err == nil || !strings.Contains(err.Error(), "DISCORD_CLIENT_SECRET") {
		t.Fatalf("partial oauth: %v", err)
	}
	c, err := Load(env(map[string]string{"DISCORD_CLIENT_ID": "1", "DISCORD_CLIENT_SECRET": "s", "DISCORD_GUILD_ID": "42"}))
	if err != nil || !c.OAuthEnabled() {
		t.Fatalf("full oauth: %v %v", c.OAuthEnabled(), err)
	}
}

func TestPollSwitch(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"false": false, "0": false, "off": false, "TRUE": true, "yes": true} {
		c, err := Load(env(map[string]string{"LATEST_CHAPTER_POLL_ENABLED": v}))
		if err != nil || c.PollEnabled != want {
			t.Errorf("%q: got %v %v", v, c.PollEnabled, err)
		}
	}
}

func TestNotifySettings(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{"DISCORD_READERS_WEBHOOK_URL": "https://discord.example/api/webhooks/2/x",
		"NOTIFY_ALLOW_NETS": " 192.168.1.7/24, 10.1.2.3 ,fd00::/64,"}))
	if err != nil || c.DiscordReadersWebhookURL != "https://discord.example/api/webhooks/2/x" {
		t.Fatalf("notify settings: %+v %v", c, err)
	}
	if got := fmt.Sprint(c.NotifyAllowNets); got != "[192.168.1.0/24 10.1.2.3/32 fd00::/64]" {
		t.Fatalf("NOTIFY_ALLOW_NETS read as %s", got)
	}
	if c, _ := Load(env(map[string]string{})); len(c.NotifyAllowNets) != 0 || c.DiscordReadersWebhookURL != "" {
		t.Fatalf("defaults: allowed nets %v, readers webhook %q", c.NotifyAllowNets, c.DiscordReadersWebhookURL)
	}
}

// NOTIFY_ALLOW_PRIVATE let every Reader reach every private address; it
// is refused when present at all, even empty or off, and the refusal names
// its replacement.
func TestAllowPrivateIsRefusedNamingItsReplacement(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"", "0", "1"} {
		_, err := LoadLookup(func(k string) (string, bool) {
			if k == "NOTIFY_ALLOW_PRIVATE" {
				return v, true
			}
			return "", false
		})
		found := false
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				var ce *Error
				if errors.As(e, &ce) && ce.Var == "NOTIFY_ALLOW_PRIVATE" && strings.Contains(ce.Reason, "NOTIFY_ALLOW_NETS") {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("NOTIFY_ALLOW_PRIVATE=%q: %v, want a refusal naming NOTIFY_ALLOW_NETS", v, err)
		}
	}
}

func TestTrackerSettings(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", MinTokenKeyLen)
	c, err := Load(env(map[string]string{
		"ANILIST_CLIENT_ID": "16329", "ANILIST_CLIENT_SECRET": "anilist-secret", "TOKEN_KEY": key,
		"TRACKER_ORIGINS": " anilist=HTTP://127.0.0.1:9100/ ",
	}))
	if err != nil || !c.AniListEnabled() || c.AniListClientSecret != "anilist-secret" {
		t.Fatalf("anilist client: %+v %v", c, err)
	}
	if got := c.TrackerOrigins["anilist"]; got != "http://127.0.0.1:9100" {
		t.Fatalf("TRACKER_ORIGINS anilist = %q", got)
	}
	if c, _ := Load(env(nil)); c.AniListEnabled() || len(c.TrackerOrigins) != 0 {
		t.Fatalf("defaults: %+v", c)
	}
	c, err = Load(env(map[string]string{"TRACKER_ORIGINS": "mangabaka=http://127.0.0.1:9101,mangaupdates=https://MU.example:8443/"}))
	if err != nil || c.TrackerOrigins["mangabaka"] != "http://127.0.0.1:9101" || c.TrackerOrigins["mangaupdates"] != "https://mu.example:8443" {
		t.Fatalf("mangabaka and mangaupdates origins: %v %v", c.TrackerOrigins, err)
	}
}

func TestCrosswalkSetting(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"": true, "on": true, "ON": true, "off": false, " off ": false} { //nolint:gocritic // the spaces are the case: a value is trimmed
		c, err := Load(env(map[string]string{"CROSSWALK": v}))
		if err != nil || c.Crosswalk != want {
			t.Errorf("CROSSWALK=%q: crosswalk %v, %v; want %v", v, c.Crosswalk, err, want)
		}
	}
	_, err := Load(env(map[string]string{"CROSSWALK": "maybe"}))
	var ce *Error
	if !errors.As(err, &ce) || ce.Var != "CROSSWALK" || !strings.Contains(ce.Reason, "off") {
		t.Fatalf("CROSSWALK=maybe: %v, want a refusal naming on and off", err)
	}
}

func TestTrackerSettingsRefused(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", MinTokenKeyLen)
	cases := []struct {
		name, want string
		vars       map[string]string
	}{
		{"id without secret", "ANILIST_CLIENT_ID", map[string]string{"ANILIST_CLIENT_ID": "1", "TOKEN_KEY": key}},
		{"secret without id", "ANILIST_CLIENT_ID", map[string]string{"ANILIST_CLIENT_SECRET": "anilist-secret", "TOKEN_KEY": key}},
		{"id not digits", "ANILIST_CLIENT_ID", map[string]string{"ANILIST_CLIENT_ID": "abc", "ANILIST_CLIENT_SECRET": "anilist-secret", "TOKEN_KEY": key}},
		{"no token key", "ANILIST_CLIENT_ID", map[string]string{"ANILIST_CLIENT_ID": "1", "ANILIST_CLIENT_SECRET": "anilist-secret"}},
		{"unknown tracker", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "kitsu=http://127.0.0.1:9100"}},
		{"not a pair", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "anilist"}},
		{"twice", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "anilist=http://a,anilist=http://b"}},
		{"path", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "anilist=http://127.0.0.1:9100/graphql"}},
		{"scheme", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "anilist=ftp://127.0.0.1"}},
		{"user", "TRACKER_ORIGINS", map[string]string{"TRACKER_ORIGINS": "anilist=http://u:p@127.0.0.1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(env(tc.vars))
			var ce *Error
			if !errors.As(err, &ce) || ce.Var != tc.want {
				t.Fatalf("error %v does not name %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "anilist-secret") {
				t.Fatalf("error leaks the client secret: %v", err)
			}
		})
	}
}
