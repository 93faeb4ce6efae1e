package api_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/client"
)

// strictNoticeEnv is a readerEnv whose notice service refuses private
// and loopback outlet URLs, as a server without NOTIFY_ALLOW_NETS does.
func strictNoticeEnv(t *testing.T) *readerEnv {
	t.Helper()
	return newReaderEnv(t, func(c *api.Config) {
		svc, err := readernotice.New(readernotice.Config{Store: c.Store, Key: []byte(testTokenKey), BaseURL: baseURL,
			Guard: netguard.Guard{Timeout: 2 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		c.ReaderNotices = svc
	})
}

// browserSubscription is PushSubscription.toJSON() of a browser at
// endpoint: fresh P-256 keys, and expirationTime null as Chromium sends.
func browserSubscription(t *testing.T, endpoint string) string {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	b, _ := json.Marshal(map[string]any{"endpoint": endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
			"auth": base64.RawURLEncoding.EncodeToString(auth)}})
	return string(b)
}

func TestPushRoutes(t *testing.T) {
	t.Parallel()
	e := strictNoticeEnv(t)
	code, body := e.do("", "GET", "/push/key", "")
	key := decodeAs[client.PushKey](t, body)
	if code != 200 || len(key.VAPIDPublicKey) != 87 {
		t.Fatalf("GET /push/key without a token: %d %s", code, body)
	}
	if _, again := e.do("", "GET", "/push/key", ""); decodeAs[client.PushKey](t, again) != key {
		t.Fatal("the key changed between two requests")
	}
	raw, err := base64.RawURLEncoding.DecodeString(key.VAPIDPublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ecdh.P256().NewPublicKey(raw); err != nil {
		t.Fatalf("the served key is no P-256 point a browser takes: %v", err)
	}

	tok := e.token("300")
	const endpoint = "https://93.184.215.14/wpush/v2/abc"
	sub := browserSubscription(t, endpoint)
	if code, _ := e.do("", "POST", "/api/push/subscriptions", sub); code != 401 {
		t.Fatalf("subscribe without a token: %d", code)
	}
	if code, body := e.do(tok, "POST", "/api/push/subscriptions", sub); code != 201 {
		t.Fatalf("subscribe: %d %s", code, body)
	}
	if _, body := e.do(tok, "GET", "/api/me/notify", ""); decodeAs[client.Notify](t, body).PushSubscriptions != 1 {
		t.Fatalf("Notify after subscribing: %s", body)
	}
	for name, c := range map[string]struct{ body, field string }{
		"loopback":  {browserSubscription(t, "http://127.0.0.1:8080/push"), `\"endpoint\"`},
		"private":   {browserSubscription(t, "https://10.1.2.3/push"), `\"endpoint\"`},
		"scheme":    {browserSubscription(t, "ftp://93.184.215.14/push"), `\"endpoint\"`},
		"bad key":   {strings.Replace(sub, `"p256dh":"`, `"p256dh":"x`, 1), `\"keys.p256dh\"`},
		"no keys":   {`{"endpoint":"https://93.184.215.14/p"}`, `\"keys.p256dh\"`},
		"unknown":   {`{"endpoint":"https://93.184.215.14/p","extra":1}`, "extra"},
		"not JSON?": {`endpoint=https://93.184.215.14/p`, "JSON"},
	} {
		code, body := e.do(tok, "POST", "/api/push/subscriptions", c.body)
		if code != 400 || !strings.Contains(string(body), c.field) {
			t.Errorf("%s: %d %s, want 400 naming %s", name, code, body, c.field)
		}
	}
	if n := e.count("push_subscriptions"); n != 1 {
		t.Fatalf("%d subscriptions stored after the refused ones", n)
	}
	// Another Reader cannot remove it.
	if code, _ := e.do(e.token("301"), "DELETE", "/api/push/subscriptions", `{"endpoint":"`+endpoint+`"}`); code != 204 || e.count("push_subscriptions") != 1 {
		t.Fatal("another Reader removed this Reader's subscription")
	}
	if code, _ := e.do(tok, "DELETE", "/api/push/subscriptions", `{"endpoint":"`+endpoint+`"}`); code != 204 || e.count("push_subscriptions") != 0 {
		t.Fatalf("unsubscribe: %d", code)
	}
	if code, _ := e.do(tok, "DELETE", "/api/push/subscriptions", `{}`); code != 400 {
		t.Fatalf("unsubscribe with no endpoint: %d", code)
	}
}

func TestPushRoutesWithoutNoticeService(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	if code, _ := e.do("", "GET", "/push/key", ""); code != 503 {
		t.Fatalf("GET /push/key without a notice service: %d", code)
	}
}
