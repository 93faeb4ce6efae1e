package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Colour is the embed colour of every owner notice: the dark branch of the
// fault colour (#cf5c4d) the console and the web pages share (the pages'
// --fault in backend/web/static/style.css). All four kinds are faults, so one
// colour serves them all.
const Colour = 13589581

// ErrRateLimited is wrapped by Send's error when Discord answered 429. The
// episode simply stays unnotified; the next Lane pass tries again.
var ErrRateLimited = errors.New("notify: discord rate limited")

// Discord posts Notices as embeds to one webhook. It is safe for
// concurrent use.
type Discord struct {
	webhook string
	client  *http.Client
	log     *slog.Logger
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
	u, err := url.Parse(cfg.WebhookURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errors.New("notify: new: the webhook URL is not an absolute http(s) URL")
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Discord{webhook: cfg.WebhookURL, client: cfg.Client, log: cfg.Log}, nil
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
		return nil, fmt.Errorf("notify: encode embed: %w", err)
	}
	return b, nil
}

// Send posts n. Any non-2xx answer is an error; a 429 wraps ErrRateLimited
// and names Discord's retry_after. No error ever quotes the webhook URL.
func (d *Discord) Send(ctx context.Context, n Notice) error {
	body, err := Payload(n)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.webhook, bytes.NewReader(body))
	if err != nil {
		// The parse error quotes the URL: say only that it is unusable.
		return errors.New("notify: DISCORD_WEBHOOK_URL is not a usable URL")
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		return d.transportError(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	d.log.Debug("discord webhook answered", "kind", n.Kind, "site", n.Site, "status", resp.StatusCode)
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%w: retry after %s", ErrRateLimited, retryAfter(resp.Header, answer))
	default:
		msg := d.redact(discordMessage(answer))
		if msg != "" {
			return fmt.Errorf("notify: discord webhook answered %d: %s", resp.StatusCode, msg)
		}
		return fmt.Errorf("notify: discord webhook answered %d", resp.StatusCode)
	}
}

// sendError keeps the cause (for errors.Is on context errors) while its
// text is the redacted one.
type sendError struct {
	msg   string
	cause error
}

func (e *sendError) Error() string { return e.msg }
func (e *sendError) Unwrap() error { return e.cause }

// transportError strips the URL net/http puts into every client error.
func (d *Discord) transportError(err error) error {
	cause := err
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err
	}
	return &sendError{msg: "notify: post to discord webhook: " + d.redact(cause.Error()), cause: cause}
}

// redact removes the webhook URL, and its path (which holds the token), from s.
func (d *Discord) redact(s string) string {
	s = strings.ReplaceAll(s, d.webhook, "<webhook>")
	if u, err := url.Parse(d.webhook); err == nil && len(u.Path) > 1 {
		s = strings.ReplaceAll(s, u.Path, "/<webhook>")
		if u.RawPath != "" {
			s = strings.ReplaceAll(s, u.RawPath, "/<webhook>")
		}
	}
	return s
}

// retryAfter reads Discord's wait from the JSON body (retry_after, seconds,
// may be fractional) or else the Retry-After header.
func retryAfter(h http.Header, body []byte) time.Duration {
	var v struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &v) == nil && v.RetryAfter > 0 {
		return time.Duration(v.RetryAfter * float64(time.Second)).Round(time.Millisecond)
	}
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
	}
	return 0
}

// discordMessage pulls Discord's "message" out of an error body, short.
func discordMessage(body []byte) string {
	var v struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	m := v.Message
	if len(m) > 200 {
		m = m[:200]
	}
	return m
}
