package readernotice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	webpush "github.com/SherClockHolmes/webpush-go"

	"mangabookmark/backend/store"
)

// Web Push header values (RFC 8030). PushTTL keeps an undelivered message
// at the push service as long as a delivery is retried here; the Topic
// makes a newer Digest replace one the push service still holds for an
// offline browser, so a phone that comes back online shows one
// notification, not a stack.
const (
	PushTTL       = int(RetryFor / 1e9) // seconds
	PushTopic     = "new-chapters"
	PushTestTopic = "test-notice"
)

// pushBodyMax bounds the notification body in bytes: notification UIs
// show a few lines anyway, and the whole message must fit PushBodyMax.
const pushBodyMax = 1500

// PushBodyMax bounds the whole encrypted Web Push body in bytes. RFC 8030
// (section 7.2) lets a push service refuse more than 4096 bytes, and
// Mozilla's answers 413 above 3070 bytes for Firefox on Android
// (webpush-go issue 23), so a body stays well under both.
const PushBodyMax = 3000

// webpush-go pads the plaintext until the encrypted body is exactly the
// record size it is given (4096 when none is). The record size is chosen
// per message: the message and its aes128gcm overhead (pushOverhead: the
// 86-byte header of salt, record size and key, the 16-byte tag and the
// 0x02 delimiter), rounded up to a multiple of pushPadStep so the length
// tells little of the Digest, and never above PushBodyMax.
const (
	pushOverhead = 86 + 16 + 1
	pushPadStep  = 256
)

// pushRecordSize is the record size, and so the encrypted body's length,
// for a message of n bytes.
func pushRecordSize(n int) uint32 {
	size := (n + pushOverhead + pushPadStep - 1) / pushPadStep * pushPadStep
	return uint32(min(size, PushBodyMax))
}

// PushMessage is the plaintext of a Web Push message, which the service
// worker at /sw.js shows as a notification that opens URL on click.
type PushMessage struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
}

// push sends a Digest to each of the Reader's browser push subscriptions,
// encrypted (RFC 8291 aes128gcm) and signed (VAPID, RFC 8292) by
// webpush-go, through the guarded outlet client.
type push struct {
	client  *http.Client
	store   *store.Store
	keys    *vapid
	subject string
	baseURL string
}

func (push) Name() string { return "push" }

func (push) Targets(r Reader) []string { return r.Push }

func (p push) Send(ctx context.Context, r Reader, endpoint string, d Digest) error {
	sub, err := p.store.GetPushSubscription(ctx, r.ID, endpoint)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: the browser's push subscription was removed", ErrGone)
	}
	if err != nil {
		return errors.New("readernotice: the push subscription could not be read; it is retried")
	}
	keys, err := p.keys.get(ctx)
	if err != nil {
		return errors.New("readernotice: the server's push key could not be read; it is retried")
	}
	msg := encodePush(pushMessageOf(d, p.baseURL), p.baseURL)
	topic := PushTopic
	if d.Test {
		topic = PushTestTopic
	}
	resp, err := webpush.SendNotificationWithContext(ctx, msg,
		&webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}},
		&webpush.Options{
			HTTPClient:      p.client,
			Subscriber:      p.subject,
			Topic:           topic,
			TTL:             PushTTL,
			Urgency:         webpush.UrgencyNormal,
			RecordSize:      pushRecordSize(len(msg)),
			VAPIDPublicKey:  keys.PublicKey,
			VAPIDPrivateKey: keys.PrivateKey,
		})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) || ctx.Err() != nil {
			return fmt.Errorf("readernotice: %s", reason(err))
		}
		// Encryption or signing failed: say so without the library's
		// words, which could quote a key.
		return errors.New("readernotice: the push message could not be encrypted for this browser; subscribe it again")
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
		return nil
	case code == http.StatusNotFound || code == http.StatusGone:
		if err := p.store.DeletePushEndpoint(ctx, sub.Endpoint); err != nil {
			return errors.New("readernotice: the push service says the subscription ended, and removing it failed; it is retried")
		}
		return fmt.Errorf("%w: the push service says this browser's subscription ended (HTTP %d); it was removed", ErrGone, code)
	default:
		return &statusError{code: code}
	}
}

// pushMessageOf is what a notification shows: the Digest's headline, its
// chapters and late Sites as lines (without the links), and the first
// chapter's page to open (the library when there is none).
func pushMessageOf(d Digest, baseURL string) PushMessage {
	var b strings.Builder
	if d.Test {
		b.WriteString("This is a test notice: notifications reach this browser.\n")
	}
	for _, c := range d.Chapters {
		fmt.Fprintf(&b, "%s %s", c.Title, c.Number)
		if c.ChapterTitle != "" {
			fmt.Fprintf(&b, " (%s)", c.ChapterTitle)
		}
		b.WriteString("\n")
	}
	b.WriteString(d.StatusText())
	b.WriteString(d.LateText())
	u := d.FirstURL()
	if u == "" {
		u = strings.TrimRight(baseURL, "/") + "/"
	}
	return PushMessage{Title: clip(d.Headline(), 200), Body: clip(strings.TrimRight(b.String(), "\n"), pushBodyMax), URL: u}
}

// pushMax bounds the encoded message: with its aes128gcm overhead it must
// fit PushBodyMax.
const pushMax = PushBodyMax - pushOverhead

// encodePush is m as JSON, its body halved (and at last its URL replaced
// by the library's) until it fits pushMax: a long Site URL or many
// escaped characters must not make a Digest unsendable.
func encodePush(m PushMessage, baseURL string) []byte {
	for i := 0; ; i++ {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(m) // plain strings: cannot fail
		out := bytes.TrimRight(b.Bytes(), "\n")
		switch {
		case len(out) <= pushMax || i == 64:
			return out
		case len(m.Body) > 16:
			m.Body = clip(m.Body, len(m.Body)/2)
		case m.URL != strings.TrimRight(baseURL, "/")+"/":
			m.URL = strings.TrimRight(baseURL, "/") + "/"
		default:
			m.Title = clip(m.Title, len(m.Title)/2+1)
		}
	}
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < len("…") {
		return ""
	}
	s = s[:n-len("…")]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// pushSubject is the VAPID "sub" claim: a way for a push service to reach
// the Owner. webpush-go takes an https URL as is and makes anything else a
// mailto: address.
func pushSubject(baseURL string) string {
	if strings.HasPrefix(baseURL, "https://") {
		return strings.TrimRight(baseURL, "/")
	}
	host := "localhost"
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "owner@" + host
}
