package readernotice_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// pushReader makes a Reader with digest_s 0 and one subscribed browser at
// ps, bookmarking mangapill/a.
func (w *world) pushReader(discordID string, ps *pushService) (int64, *browser, string) {
	w.t.Helper()
	r, err := w.st.UpsertReader(w.ctx, discordID, "Reader "+discordID, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{DigestS: new(int)}); err != nil {
		w.t.Fatal(err)
	}
	b := newBrowser(w.t)
	endpoint := ps.URL + "/push/v2/" + discordID + "-capability"
	if err := w.svc.Subscribe(w.ctx, r.ID, b.sub(endpoint)); err != nil {
		w.t.Fatal(err)
	}
	w.bookmark(r.ID, "mangapill", "a")
	return r.ID, b, endpoint
}

func TestPushDigestIsEncryptedSignedAndReplaceable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ps := newPushService(t)
	_, b, _ := w.pushReader("11", ps)
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	got := ps.received()
	if len(got) != 1 {
		t.Fatalf("%d push messages, want 1", len(got))
	}
	m := got[0]
	plain, err := b.decrypt(m.Body)
	if err != nil {
		t.Fatalf("the browser cannot decrypt the message: %v", err)
	}
	var msg readernotice.PushMessage
	if err := json.Unmarshal(plain, &msg); err != nil {
		t.Fatalf("plaintext %q: %v", plain, err)
	}
	if msg.Title != "New chapter: Series a 2" || msg.URL != "https://mangapill.example/a/2" || !strings.Contains(msg.Body, "Series a 2 (Ch 2)") {
		t.Fatalf("message %+v", msg)
	}
	// Another browser's keys cannot read it.
	if _, err := newBrowser(t).decrypt(m.Body); err == nil {
		t.Fatal("a browser with other keys decrypted the message")
	}
	if ce := m.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		t.Fatalf("Content-Encoding %q", ce)
	}
	if ttl, topic := m.Header.Get("TTL"), m.Header.Get("Topic"); ttl != "86400" || topic != readernotice.PushTopic {
		t.Fatalf("TTL %q Topic %q: want 86400 and %q so a newer Digest replaces an unsent one", ttl, topic, readernotice.PushTopic)
	}
	key, err := w.svc.PushKey(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := verifyVAPID(m.Header.Get("Authorization"), key)
	if err != nil {
		t.Fatalf("VAPID: %v", err)
	}
	if c.Aud != ps.URL || c.Sub == "" {
		t.Fatalf("claims %+v: aud must be the push service origin %s", c, ps.URL)
	}
	if exp := time.Unix(c.Exp, 0); exp.Before(time.Now()) || exp.After(time.Now().Add(24*time.Hour)) {
		t.Fatalf("exp %v is not within the next 24 h (RFC 8292)", exp)
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE outlet = 'push' AND sent_at IS NOT NULL`); n != 1 {
		t.Fatalf("%d push deliveries marked sent", n)
	}
}

func TestPushGoneDeletesTheSubscription(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusNotFound, http.StatusGone} {
		w := newWorld(t)
		ps := newPushService(t)
		ps.setStatus(code)
		r, _, endpoint := w.pushReader("12", ps)
		w.read("mangapill", "a", "1")
		w.read("mangapill", "a", "2")
		w.run()
		if len(ps.received()) != 1 {
			t.Fatalf("HTTP %d: %d sends", code, len(ps.received()))
		}
		if _, err := w.st.GetPushSubscription(w.ctx, r, endpoint); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("HTTP %d: the subscription is still stored (%v)", code, err)
		}
		if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE dropped_at IS NOT NULL AND attempts = 1`); n != 1 {
			t.Fatalf("HTTP %d: the delivery was not dropped after one attempt", code)
		}
		if n := w.count(`SELECT count(*) FROM notify_outlets WHERE failing_since IS NOT NULL`); n != 0 {
			t.Fatalf("HTTP %d: a gone subscription counted as a failing outlet", code)
		}
		// Later Digests no longer go there.
		w.read("mangapill", "a", "3")
		w.run()
		if len(ps.received()) != 1 {
			t.Fatalf("HTTP %d: sent again to a deleted subscription", code)
		}
	}
}

func TestPushFailureIsRetriedAndLogsNoSecret(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	var mu sync.Mutex
	w := newWorld(t, func(c *readernotice.Config) {
		c.Log = slog.New(slog.NewTextHandler(&lockedWriter{&mu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	ps := newPushService(t)
	ps.setStatus(http.StatusInternalServerError)
	_, _, endpoint := w.pushReader("13", ps)
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE sent_at IS NULL AND dropped_at IS NULL AND attempts = 1 AND last_error <> ''`); n != 1 {
		t.Fatal("a 500 from the push service is not retried")
	}
	var priv string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT private_key FROM vapid_keys`).Scan(&priv); err != nil {
		t.Fatal(err)
	}
	var lastErr string
	_ = w.st.Pool().QueryRow(w.ctx, `SELECT last_error FROM notice_deliveries`).Scan(&lastErr)
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	if !strings.Contains(out, "send failed") {
		t.Fatalf("the failure was not logged: %s", out)
	}
	for _, secret := range []string{priv, "capability"} {
		if strings.Contains(out, secret) || strings.Contains(lastErr, secret) {
			t.Fatalf("%q reached the log or the Reader's error: %s / %s", secret, out, lastErr)
		}
	}
	_ = endpoint
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestPushKeyIsMadeOnceForEveryReplica(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	other, err := store.Open(w.ctx, w.st.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	svcs := []*readernotice.Service{w.svc, w.service(other), w.service(w.st), w.service(other), w.service(other)}
	keys := make([]string, len(svcs))
	var wg sync.WaitGroup
	for i, s := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := s.PushKey(w.ctx)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys {
		if k != keys[0] || len(k) != 87 { // 65 bytes in base64url
			t.Fatalf("replicas serve different or malformed keys: %q", keys)
		}
	}
	if n := w.count(`SELECT count(*) FROM vapid_keys`); n != 1 {
		t.Fatalf("%d key rows", n)
	}
	// A process started later reads the same key.
	if k, _ := w.service(w.st).PushKey(w.ctx); k != keys[0] {
		t.Fatal("a restarted replica made a new key")
	}
}

func TestPushSubscribeRefusesWhatAnAttackerWouldSend(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *readernotice.Config) {
		c.Guard = netguard.Guard{Timeout: 2 * time.Second}
	})
	r, _ := w.st.UpsertReader(w.ctx, "14", "Mallory", nil)
	good := newBrowser(t).sub("https://push.example.invalid/x")
	offCurve := good
	offCurve.P256dh = "BA" + strings.Repeat("A", 85) // 0x04 then zeros: not on P-256
	shortAuth := good
	shortAuth.Auth = "AAAA"
	cases := []struct {
		name  string
		sub   readernotice.PushSubscription
		field string
	}{
		{"loopback", withEndpoint(good, "http://127.0.0.1:9/push"), "endpoint"},
		{"metadata", withEndpoint(good, "http://169.254.169.254/latest"), "endpoint"},
		{"ipv6 loopback", withEndpoint(good, "https://[::1]/p"), "endpoint"},
		{"decimal host", withEndpoint(good, "http://2130706433/p"), "endpoint"},
		{"not http", withEndpoint(good, "javascript:alert(1)"), "endpoint"},
		{"file", withEndpoint(good, "file:///etc/passwd"), "endpoint"},
		{"empty", withEndpoint(good, ""), "endpoint"},
		{"huge", withEndpoint(good, "https://93.184.215.14/"+strings.Repeat("a", 3000)), "endpoint"},
		{"off curve key", withEndpoint(offCurve, "https://93.184.215.14/p"), "keys.p256dh"},
		{"garbage key", withEndpoint(readernotice.PushSubscription{P256dh: "!!", Auth: good.Auth}, "https://93.184.215.14/p"), "keys.p256dh"},
		{"short auth", withEndpoint(shortAuth, "https://93.184.215.14/p"), "keys.auth"},
	}
	for _, c := range cases {
		err := w.svc.Subscribe(w.ctx, r.ID, c.sub)
		var fe *readernotice.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Msg == "" {
			t.Errorf("%s: got %v, want a FieldError on %s", c.name, err, c.field)
		}
	}
	if n := w.count(`SELECT count(*) FROM push_subscriptions`); n != 0 {
		t.Fatalf("%d refused subscriptions were stored", n)
	}
	// A public address passes; the per-Reader cap holds.
	for i := range readernotice.MaxPushSubscriptions {
		s := withEndpoint(good, "https://93.184.215.14/p/"+string(rune('a'+i)))
		if err := w.svc.Subscribe(w.ctx, r.ID, s); err != nil {
			t.Fatalf("subscription %d: %v", i, err)
		}
	}
	var fe *readernotice.FieldError
	if err := w.svc.Subscribe(w.ctx, r.ID, withEndpoint(good, "https://93.184.215.14/p/over")); !errors.As(err, &fe) {
		t.Fatalf("subscription past the cap: %v", err)
	}
	// Re-sending one already stored is no new browser.
	if err := w.svc.Subscribe(w.ctx, r.ID, withEndpoint(good, "https://93.184.215.14/p/a")); err != nil {
		t.Fatalf("re-subscribing a stored browser: %v", err)
	}
	if ok, err := w.svc.Unsubscribe(w.ctx, r.ID, "https://93.184.215.14/p/a"); !ok || err != nil {
		t.Fatalf("unsubscribe: %v %v", ok, err)
	}
}

func withEndpoint(s readernotice.PushSubscription, e string) readernotice.PushSubscription {
	s.Endpoint = e
	return s
}

func TestPushToAPrivateEndpointIsRefusedAtDial(t *testing.T) {
	t.Parallel()
	w := newWorld(t) // this replica allows private addresses: the subscription is stored
	ps := newPushService(t)
	_, _, _ = w.pushReader("15", ps)
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	strict := w.service(w.st, func(c *readernotice.Config) { c.Guard = netguard.Guard{Timeout: 2 * time.Second} })
	if err := strict.RunOnce(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(ps.received()); n != 0 {
		t.Fatalf("a replica that refuses private addresses reached the loopback push service %d times", n)
	}
	var lastErr string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT last_error FROM notice_deliveries WHERE outlet = 'push'`).Scan(&lastErr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lastErr, "private or loopback") {
		t.Fatalf("last_error %q does not say the address is private", lastErr)
	}
}

func TestPushTestNoticeUsesItsOwnTopic(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ps := newPushService(t)
	r, b, _ := w.pushReader("16", ps)
	res, err := w.svc.SendTest(w.ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Outlet != "push" || !res[0].OK {
		t.Fatalf("results %+v", res)
	}
	got := ps.received()
	if len(got) != 1 || got[0].Header.Get("Topic") != readernotice.PushTestTopic {
		t.Fatalf("%d messages; topic %q", len(got), got[0].Header.Get("Topic"))
	}
	plain, err := b.decrypt(got[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	var msg readernotice.PushMessage
	_ = json.Unmarshal(plain, &msg)
	if msg.Title != "Test notice from mangabookmark" || msg.URL != "http://mb.example/" {
		t.Fatalf("test message %+v", msg)
	}
}

func TestPushOfAHugeDigestStillFitsOneRecord(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ps := newPushService(t)
	r, b, _ := w.pushReader("17", ps)
	long := strings.Repeat("<&>é", 70) // escaped or multi-byte, near the 300-character cut
	for i := range 30 {
		id := fmt.Sprint("s", i)
		w.bookmark(r, "mangapill", id)
		if _, err := w.st.RecordOK(w.ctx, "mangapill", id, store.ReadFacts{Title: long, Number: "1", ChTitle: long,
			ChURL: "https://mangapill.example/" + strings.Repeat("x", 2000)}, w.clk.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := w.st.RecordOK(w.ctx, "mangapill", id, store.ReadFacts{Title: long, Number: "2", ChTitle: long,
			ChURL: "https://mangapill.example/" + strings.Repeat("y", 2000)}, w.clk.Now()); err != nil {
			t.Fatal(err)
		}
	}
	w.run()
	got := ps.received()
	if len(got) != 1 {
		t.Fatalf("%d messages; deliveries: %d failed", len(got), w.count(`SELECT count(*) FROM notice_deliveries WHERE last_error <> ''`))
	}
	plain, err := b.decrypt(got[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	var msg readernotice.PushMessage
	if err := json.Unmarshal(plain, &msg); err != nil || !strings.HasPrefix(msg.Title, "30 new chapters") || msg.Body == "" || msg.URL == "" {
		t.Fatalf("message %q: %v", plain, err)
	}
}
