package readernotice

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
)

// Webhook headers (docs/api.md, "Reader notices").
const (
	SignatureHeader = "X-Mangabookmark-Signature"
	EventHeader     = "X-Mangabookmark-Event"
)

// webhookBody is what a Reader's webhook receives.
type webhookBody struct {
	Event    string    `json:"event"`
	Reader   Recipient `json:"reader"`
	Chapters []Chapter `json:"chapters"`
	Late     []Late    `json:"late"`
	Test     bool      `json:"test,omitempty"`
}

// webhook POSTs the Digest as JSON to the Reader's URL, signed with
// HMAC-SHA256 under the secret the server generated for them.
type webhook struct{ client *http.Client }

func (webhook) Name() string { return "webhook" }

func (webhook) Targets(r Reader) []string {
	if r.Settings.WebhookURL == "" {
		return nil
	}
	return []string{""}
}

func (w webhook) Send(ctx context.Context, r Reader, _ string, d Digest) error {
	body, err := json.Marshal(webhookBody{Event: "new_chapters", Reader: d.Reader, Chapters: d.Chapters, Late: d.Late, Test: d.Test})
	if err != nil {
		return err
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(EventHeader, "new_chapters")
	h.Set(SignatureHeader, "sha256="+Sign(r.Settings.WebhookSecret, body))
	return post(ctx, w.client, r.Settings.WebhookURL, h, body)
}

// Sign is the hex HMAC-SHA256 of body under secret, as the webhook's
// signature header carries it after "sha256=".
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
