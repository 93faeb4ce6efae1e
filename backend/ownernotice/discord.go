package ownernotice

import (
	"mangabookmark/backend/discordhook"

	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Colour is the embed colour of every owner notice: the dark branch of the
// fault colour (#cf5c4d) the console and the web pages share (the pages'
// --fault in backend/web/static/style.css). All four kinds are faults, so one
// colour serves them all.
const Colour = 13589581

// ErrRateLimited is wrapped by Send's error when Discord answered 429. The
// episode simply stays unnotified; the next Lane pass tries again.
var ErrRateLimited = discordhook.ErrRateLimited

// Discord posts Notices as embeds to one webhook. It is safe for
// concurrent use.
type Discord struct {
	hook *discordhook.Hook
	log  *slog.Logger
}

// Config configures a Discord sender.
type Config struct {
	// WebhookURL is DISCORD_WEBHOOK_URL: required, an absolute http(s)
	// URL. It holds the webhook's secret, so it is never logged nor quoted
	// in an error.
	WebhookURL string
	Client     *http.Client // nil: a client with a 10s timeout
	Log        *slog.Logger // nil: discard
}

// New returns a sender for the webhook, or an error when the URL is not
// an absolute http(s) URL.
func New(cfg Config) (*Discord, error) {
	hook, err := discordhook.New(cfg.WebhookURL, cfg.Client)
	if err != nil {
		return nil, fmt.Errorf("ownernotice: new: %w", err)
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Discord{hook: hook, log: cfg.Log}, nil
}

type payload struct {
	Embeds          []embed         `json:"embeds"`
	AllowedMentions allowedMentions `json:"allowed_mentions"`
}

// allowedMentions with an empty (not absent) parse list tells Discord to
// ping nobody, whatever text a notice carries (@everyone, <@id>, <@&role>).
type allowedMentions struct {
	Parse []string `json:"parse"`
}

type embed struct {
	Title       string `json:"title"`
	URL         string `json:"url,omitempty"`
	Description string `json:"description"`
	Color       int    `json:"color"`
	Timestamp   string `json:"timestamp"`
	Footer      footer `json:"footer"`
}

type footer struct {
	Text string `json:"text"`
}

// Payload returns the JSON body Send posts for n: one embed with title,
// link, description, colour, timestamp and footer, and allowed_mentions
// with an empty parse list so no text in it can ping anyone; nothing else.
func Payload(n Notice) ([]byte, error) {
	b, err := json.Marshal(payload{Embeds: []embed{{
		Title:       n.Subject,
		URL:         n.DeepLink,
		Description: n.Description,
		Color:       Colour,
		Timestamp:   n.At.UTC().Format(time.RFC3339),
		Footer:      footer{Text: n.Kind},
	}}, AllowedMentions: allowedMentions{Parse: []string{}}})
	if err != nil {
		return nil, fmt.Errorf("ownernotice: encode embed: %w", err)
	}
	return b, nil
}

// Send posts n through the one Discord poster (backend/discordhook). Any
// non-2xx answer is an error; a 429 wraps ErrRateLimited and names
// Discord's retry_after. No error ever quotes the webhook URL.
func (d *Discord) Send(ctx context.Context, n Notice) error {
	body, err := Payload(n)
	if err != nil {
		return err
	}
	err = d.hook.Post(ctx, body)
	d.log.Debug("discord webhook answered", "kind", n.Kind, "site", n.Site, "ok", err == nil)
	if err != nil {
		return fmt.Errorf("ownernotice: %w", err)
	}
	return nil
}
