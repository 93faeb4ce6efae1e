package readernotice_test

import (
	"encoding/hex"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"mangabookmark/backend/readernotice"
)

// A receiver verifies the webhook with the Standard Webhooks library
// (github.com/standard-webhooks/standard-webhooks/libraries/go, an
// implementation of the spec this server's code shares nothing with):
// the secret shown is a whsec_ secret, the timestamp is the send's, and
// a retry of one delivery carries the same webhook-id.
func TestWebhookVerifiesAsStandardWebhooks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	h.setStatus(http.StatusInternalServerError)
	r, _ := w.st.UpsertReader(w.ctx, "42", "Ann", nil)
	u := h.URL + "/in"
	set, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{WebhookURL: &u, DigestS: new(int)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(set.WebhookSecret, "whsec_") {
		t.Fatalf("secret %q is not a Standard Webhooks whsec_ secret", set.WebhookSecret)
	}
	wh, err := standardwebhooks.NewWebhook(set.WebhookSecret)
	if err != nil {
		t.Fatalf("the library refuses the secret shown: %v", err)
	}
	w.bookmark(r.ID, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	first := w.clk.Now()
	w.clk.Add(31 * time.Second) // past the first backoff
	h.setStatus(0)
	w.run()
	got := h.received()
	if len(got) != 2 {
		t.Fatalf("%d calls, want a failed one and its retry", len(got))
	}
	var delivery int64
	var stored string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT id, webhook_id FROM notice_deliveries WHERE reader_id = $1 AND outlet = 'webhook'`, r.ID).Scan(&delivery, &stored); err != nil {
		t.Fatal(err)
	}
	if !msgID.MatchString(stored) {
		t.Fatalf("the stored webhook-id %q is not msg_ and 128 bits in hex", stored)
	}
	for i, c := range got {
		if err := wh.Verify(c.Body, c.Header); err != nil {
			t.Errorf("call %d does not verify: %v (headers %v)", i, err, c.Header)
		}
		if id := c.Header.Get("webhook-id"); id != stored {
			t.Errorf("call %d: webhook-id %q, want the delivery's stored %q on every retry", i, id, stored)
		}
		if v := c.Header.Values("X-Mangabookmark-Signature"); len(v) != 0 {
			t.Errorf("call %d: the removed body-only signature is sent: %q", i, v)
		}
	}
	for i, at := range []time.Time{first, w.clk.Now()} {
		if ts := got[i].Header.Get("webhook-timestamp"); ts != strconv.FormatInt(at.Unix(), 10) {
			t.Errorf("call %d: webhook-timestamp %s, want the send's time %d", i, ts, at.Unix())
		}
	}
	// A test notice has no delivery row: an id of its own, verified alike.
	if _, err := w.svc.SendTest(w.ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if got = h.received(); len(got) != 3 || !strings.HasPrefix(got[2].Header.Get("webhook-id"), "test_") || wh.Verify(got[2].Body, got[2].Header) != nil {
		t.Fatalf("the test notice: %d calls, id %q", len(got), got[len(got)-1].Header.Get("webhook-id"))
	}
	// What a receiver refuses: an altered body, another secret, an old
	// timestamp (a replay), a signature moved to another id.
	c := got[1]
	altered := append([]byte(nil), c.Body[:len(c.Body)-1]...)
	altered = append(altered, ' ', '}') // the same JSON, other bytes
	if err := wh.Verify(altered, c.Header); err == nil {
		t.Error("an altered body verifies")
	}
	other, _ := standardwebhooks.NewWebhook("whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err := other.Verify(c.Body, c.Header); err == nil {
		t.Error("another secret verifies")
	}
	old := c.Header.Clone()
	old.Set("webhook-timestamp", strconv.FormatInt(time.Now().Add(-6*time.Minute).Unix(), 10))
	if err := wh.Verify(c.Body, old); err == nil {
		t.Error("a timestamp moved six minutes back verifies")
	}
	moved := c.Header.Clone()
	moved.Set("webhook-id", "delivery_"+strconv.FormatInt(delivery, 10))
	if err := wh.Verify(c.Body, moved); err == nil {
		t.Error("the signature verifies for another webhook-id")
	}
}

// A secret made before Standard Webhooks ("mbwh_" and 32 bytes in hex)
// keeps working: its bytes are the signing key, so a receiver that held
// it verifies the new headers with them.
func TestWebhookLegacySecretSignsWithItsBytes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	rid := w.reader("7", h, 0)
	const legacy = "mbwh_8f1c0d6e2a4b5c7d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
	// Raw SQL on purpose: the row is the attack. The store no longer makes
	// secrets of this shape, so the only way to have one is to forge the
	// row.
	w.exec(`UPDATE reader_notify SET webhook_secret = $2 WHERE reader_id = $1`, rid, legacy)
	w.bookmark(rid, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls", len(got))
	}
	key, _ := hex.DecodeString(strings.TrimPrefix(legacy, "mbwh_"))
	wh, err := standardwebhooks.NewWebhookRaw(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(got[0].Body, got[0].Header); err != nil {
		t.Fatalf("a legacy secret's Standard Webhooks signature does not verify: %v", err)
	}
	if v := got[0].Header.Values("X-Mangabookmark-Signature"); len(v) != 0 {
		t.Fatalf("the removed body-only signature is sent: %q", v)
	}
}

// msgID is a delivery's webhook-id: msg_ and 128 bits in hex.
var msgID = regexp.MustCompile(`^msg_[0-9a-f]{32}$`)

// Two servers, each with its own database, send their first Digest to one
// receiver: their delivery rows have the same id (1), and with the row id
// as webhook-id (delivery_1) the receiver dropped the second server's real
// delivery as a replay. Each delivery's webhook-id is its own now, and a
// retry of one carries it again.
func TestWebhookIDsOfTwoServersNeverMeet(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	seen := map[string]string{}
	rows := map[int64]int{}
	for _, server := range []string{"a", "b"} {
		w := newWorld(t) // a database of its own
		rid := w.reader("1", h, 0)
		w.bookmark(rid, "mangapill", "s")
		for _, n := range []string{"1", "2", "3"} {
			w.read("mangapill", "s", n)
			w.clk.Add(time.Minute)
			w.run()
		}
		var ids []int64
		if err := w.st.Pool().QueryRow(w.ctx, `SELECT array_agg(id ORDER BY id) FROM notice_deliveries`).Scan(&ids); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			rows[id]++
		}
		for _, c := range h.received()[len(seen):] {
			id := c.Header.Get("webhook-id")
			if !msgID.MatchString(id) {
				t.Fatalf("server %s: webhook-id %q", server, id)
			}
			if other, ok := seen[id]; ok {
				t.Fatalf("server %s sent webhook-id %q, which server %s sent before", server, id, other)
			}
			seen[id] = server
		}
	}
	if len(seen) != 4 {
		t.Fatalf("%d distinct webhook-ids, want 4 (two Digests from each server)", len(seen))
	}
	if rows[1] != 2 {
		t.Fatalf("the two databases' delivery rows are %v: the test needs both to have row 1 to prove anything", rows)
	}
}
