package readernotice

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"

	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// Settings is a Reader's notice settings as the API shows them.
type Settings struct {
	DigestS           int
	Discord           bool
	DiscordAvailable  bool
	NtfyURL           string
	WebhookURL        string
	WebhookSecretSet  bool
	WebhookSecret     string // set only in the answer of the change that made it
	PushSubscriptions int
	FeedURL           string
	Outlets           []store.OutletHealth
}

// SettingsChange is a partial settings update; nil fields keep the stored value,
// and "" turns a URL outlet off.
type SettingsChange struct {
	DigestS    *int
	Discord    *bool
	NtfyURL    *string
	WebhookURL *string
}

// FieldError names the request field that is wrong and says why, in a
// sentence a Reader can act on.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// MaxDigestS is the longest digest window: one day.
const MaxDigestS = 86400

// Settings returns the Reader's settings, making their feed token on first
// use.
func (s *Service) Settings(ctx context.Context, readerID int64) (Settings, error) {
	st, err := s.cfg.Store.GetNotify(ctx, readerID)
	if err != nil {
		return Settings{}, err
	}
	return s.view(ctx, st)
}

func (s *Service) view(ctx context.Context, st store.NotifySettings) (Settings, error) {
	feed, err := s.feedURL(ctx, st)
	if err != nil {
		return Settings{}, err
	}
	push, err := s.cfg.Store.PushEndpoints(ctx, st.ReaderID)
	if err != nil {
		return Settings{}, err
	}
	health, err := s.cfg.Store.ListOutletHealth(ctx, st.ReaderID)
	if err != nil {
		return Settings{}, err
	}
	return Settings{DigestS: st.DigestS, Discord: st.Discord, DiscordAvailable: s.DiscordAvailable(),
		NtfyURL: st.NtfyURL, WebhookURL: st.WebhookURL, WebhookSecretSet: st.WebhookSecret != "",
		PushSubscriptions: len(push), FeedURL: feed, Outlets: health}, nil
}

// UpdateSettings checks and applies c. A URL must be http(s) and, unless the Owner
// allows private addresses, must not be or resolve to a private or
// loopback one; a bad field is a *FieldError and nothing is stored. A new
// webhook URL gets a new secret, returned once in WebhookSecret.
func (s *Service) UpdateSettings(ctx context.Context, readerID int64, c SettingsChange) (Settings, error) {
	var sc store.NotifyChange
	if c.DigestS != nil {
		if *c.DigestS < 0 || *c.DigestS > MaxDigestS {
			return Settings{}, &FieldError{"digest_s", fmt.Sprintf("the digest window is seconds from 0 (send at once) to %d (a day)", MaxDigestS)}
		}
		sc.DigestS = c.DigestS
	}
	if c.Discord != nil {
		if *c.Discord && !s.DiscordAvailable() {
			return Settings{}, &FieldError{"discord", "the Owner has not set up a Discord channel for Readers' notices (DISCORD_READERS_WEBHOOK_URL)"}
		}
		sc.Discord = c.Discord
	}
	for _, f := range []struct {
		name string
		in   *string
		out  **string
	}{{"ntfy_url", c.NtfyURL, &sc.NtfyURL}, {"webhook_url", c.WebhookURL, &sc.WebhookURL}} {
		if f.in == nil {
			continue
		}
		v := strings.TrimSpace(*f.in)
		if v != "" {
			if len(v) > 2048 {
				return Settings{}, &FieldError{f.name, "the URL is longer than 2048 characters"}
			}
			if err := s.cfg.Guard.Check(ctx, v); err != nil {
				return Settings{}, &FieldError{f.name, netguard.Reason(err)}
			}
		}
		*f.out = &v
	}
	old, err := s.cfg.Store.GetNotify(ctx, readerID)
	if err != nil {
		return Settings{}, err
	}
	var secret string
	if sc.WebhookURL != nil {
		switch {
		case *sc.WebhookURL == "":
			empty := ""
			sc.WebhookSecret = &empty
		case *sc.WebhookURL != old.WebhookURL || old.WebhookSecret == "":
			secret = newSecret()
			sc.WebhookSecret = &secret
		}
	}
	st, err := s.cfg.Store.PutNotify(ctx, readerID, sc)
	if err != nil {
		return Settings{}, err
	}
	out, err := s.view(ctx, st)
	out.WebhookSecret = secret
	return out, err
}

// newSecret is a webhook signing secret in Standard Webhooks' shape:
// "whsec_" and the base64 of 32 random bytes, the signing key.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return WebhookSecretPrefix + base64.StdEncoding.EncodeToString(b)
}
