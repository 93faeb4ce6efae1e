package readernotice

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Webhook headers (docs/api.md, "Reader notices"). The three lower-case
// ones are the Standard Webhooks convention (standardwebhooks.com): a
// delivery id that stays the same on every retry, the send time in Unix
// seconds, and "v1,<base64 HMAC-SHA256 of id.timestamp.body>". A receiver
// refuses a timestamp more than five minutes from its own clock, which
// is what stops a replay. The body-only X-Mangabookmark-Signature of
// before (no time, no id, so replayable forever) is no longer sent.
const (
	WebhookIDHeader        = "webhook-id"
	WebhookTimestampHeader = "webhook-timestamp"
	WebhookSignatureHeader = "webhook-signature"
	EventHeader            = "X-Mangabookmark-Event"
)

// WebhookSecretPrefix starts a webhook secret: Standard Webhooks' "whsec_"
// before the base64 of the signing key.
const WebhookSecretPrefix = "whsec_"

// legacySecretPrefix started the secrets made before Standard Webhooks:
// "mbwh_" and 32 bytes in hex. Those bytes are their signing key.
const legacySecretPrefix = "mbwh_"

// webhookBody is what a Reader's webhook receives.
type webhookBody struct {
	Event    string    `json:"event"`
	Reader   Recipient `json:"reader"`
	Chapters []Chapter `json:"chapters"`
	Late     []Late    `json:"late"`
	Offers   []Offer   `json:"offers,omitempty"`
	// Status: status changes of followed stories, each told once.
	Status []StatusChange `json:"status,omitempty"`
	Test   bool           `json:"test,omitempty"`
}

// webhook POSTs the Digest as JSON to the Reader's URL, signed with
// HMAC-SHA256 under the secret the server generated for them.
type webhook struct {
	client *http.Client
	now    func() time.Time // the webhook-timestamp: the service's clock
}

func (webhook) Name() string { return "webhook" }

func (webhook) Targets(r Reader) []string {
	if r.Settings.WebhookURL == "" {
		return nil
	}
	return []string{""}
}

func (w webhook) Send(ctx context.Context, r Reader, _ string, d Digest) error {
	body, err := json.Marshal(webhookBody{Event: "new_chapters", Reader: d.Reader, Chapters: d.Chapters, Late: d.Late, Offers: d.Offers, Status: d.Status, Test: d.Test})
	if err != nil {
		return err
	}
	key, err := webhookKey(r.Settings.WebhookSecret)
	if err != nil {
		return err
	}
	id, ts := webhookID(d), w.now().Unix()
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(EventHeader, "new_chapters")
	h.Set(WebhookIDHeader, id)
	h.Set(WebhookTimestampHeader, strconv.FormatInt(ts, 10))
	h.Set(WebhookSignatureHeader, "v1,"+signStandard(key, id, ts, body))
	return post(ctx, w.client, r.Settings.WebhookURL, h, body)
}

// webhookID is the delivery's webhook-id: the one stored with its row
// ("msg_" and 128 random bits, store.NewWebhookID), the same on every
// retry so a receiver can drop a second copy, and unique across servers
// and databases so it never drops another server's delivery. A test notice
// has no delivery row and gets a random id of its own.
func webhookID(d Digest) string {
	if d.WebhookID != "" {
		return d.WebhookID
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return "test_" + hex.EncodeToString(b)
}

// errWebhookSecret is a stored secret that is neither shape this server
// makes; only a hand-edited database holds one.
var errWebhookSecret = errors.New("readernotice: the webhook secret cannot be used; clear the webhook URL and set it again for a new secret")

// webhookKey is the signing key a secret stands for: the base64 after
// "whsec_", or the hex after a legacy "mbwh_".
func webhookKey(secret string) ([]byte, error) {
	var key []byte
	var err error
	switch {
	case strings.HasPrefix(secret, WebhookSecretPrefix):
		key, err = base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, WebhookSecretPrefix))
	case strings.HasPrefix(secret, legacySecretPrefix):
		key, err = hex.DecodeString(strings.TrimPrefix(secret, legacySecretPrefix))
	default:
		return nil, errWebhookSecret
	}
	if err != nil || len(key) == 0 {
		return nil, errWebhookSecret
	}
	return key, nil
}

// signStandard is the base64 HMAC-SHA256 of "id.timestamp.body" under key,
// as webhook-signature carries it after "v1,".
func signStandard(key []byte, id string, ts int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "."))
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}
