package ownernotice_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/ownernotice"
	"mangabookmark/internal/golden"
)

// secretPath is a fake webhook path; its token must never leak.
const secretPath = "/api/webhooks/1234567890/s3cr3t-T0KEN-do-not-log"

var sample = ownernotice.Notice{
	Kind:        ownernotice.KindStall,
	Site:        "mangapill",
	Subject:     "mangapill",
	DeepLink:    "https://manga.example.org/admin/lanes/mangapill",
	Description: "mangapill has checked nothing for 13h although 42 Series are due; look at its Lane with mbctl and at the backend log.",
	At:          time.Date(2026, 9, 1, 13, 0, 0, 0, time.UTC),
}

// captured records what a test webhook received.
type captured struct {
	mu     sync.Mutex
	bodies [][]byte
	ctype  []string
	method []string
}

func (c *captured) handler(status int, answer string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.bodies = append(c.bodies, b)
		c.ctype = append(c.ctype, r.Header.Get("Content-Type"))
		c.method = append(c.method, r.Method)
		c.mu.Unlock()
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	}
}

func TestEmbedPayloadGolden(t *testing.T) {
	t.Parallel()
	var c captured
	srv := httptest.NewServer(c.handler(http.StatusNoContent, ""))
	defer srv.Close()
	d := newDiscord(t, srv.URL+secretPath, srv.Client())
	if err := d.Send(context.Background(), sample); err != nil {
		t.Fatalf("send: %v", err)
	}
	if len(c.bodies) != 1 || c.method[0] != http.MethodPost || c.ctype[0] != "application/json" {
		t.Fatalf("posts %d, method %v, content type %v", len(c.bodies), c.method, c.ctype)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, c.bodies[0], "", "  "); err != nil {
		t.Fatalf("posted body is not JSON: %v", err)
	}
	got.WriteByte('\n')
	golden.Check(t, filepath.Join("testdata", "embed.golden.json"), got.Bytes())
}

func TestEmbedHasNothingElse(t *testing.T) {
	t.Parallel()
	b, err := ownernotice.Payload(sample)
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Embeds          []map[string]any           `json:"embeds"`
		AllowedMentions map[string]json.RawMessage `json:"allowed_mentions"`
	}
	var keysTop map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &keysTop); err != nil {
		t.Fatal(err)
	}
	if len(keysTop) != 2 || len(top.Embeds) != 1 {
		t.Fatalf("want exactly one embed and allowed_mentions, no other key: %s", b)
	}
	// No mention in any notice text may ping: parse is present and empty.
	if p, ok := top.AllowedMentions["parse"]; !ok || string(p) != "[]" || len(top.AllowedMentions) != 1 {
		t.Errorf("allowed_mentions = %v, want {\"parse\": []}", top.AllowedMentions)
	}
	keys := map[string]bool{}
	for k := range top.Embeds[0] {
		keys[k] = true
	}
	for _, k := range []string{"title", "url", "description", "color", "timestamp", "footer"} {
		if !keys[k] {
			t.Errorf("embed lacks %q", k)
		}
		delete(keys, k)
	}
	if len(keys) != 0 {
		t.Errorf("embed has extra keys %v", keys)
	}
	if top.Embeds[0]["color"] != float64(13589581) {
		t.Errorf("color %v", top.Embeds[0]["color"])
	}
	noLink := sample
	noLink.DeepLink = ""
	b, _ = ownernotice.Payload(noLink)
	if strings.Contains(string(b), `"url"`) {
		t.Errorf("empty deep link still sent a url: %s", b)
	}
}

func TestSendStatuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		status      int
		answer      string
		wantErr     bool
		rateLimited bool
		wantText    string
	}{
		{name: "no content", status: http.StatusNoContent},
		{name: "ok", status: http.StatusOK, answer: `{"id":"1"}`},
		{name: "rate limited", status: http.StatusTooManyRequests, answer: `{"message":"You are being rate limited.","retry_after":1.5,"global":false}`, wantErr: true, rateLimited: true, wantText: "retry after 1.5s"},
		{name: "server error", status: http.StatusInternalServerError, answer: `{"message":"Internal"}`, wantErr: true, wantText: "answered 500: Internal"},
		{name: "unknown webhook", status: http.StatusNotFound, answer: `{"message":"Unknown Webhook","code":10015}`, wantErr: true, wantText: "answered 404"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c captured
			srv := httptest.NewServer(c.handler(tc.status, tc.answer))
			defer srv.Close()
			err := newDiscord(t, srv.URL+secretPath, srv.Client()).Send(context.Background(), sample)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err == nil {
				return
			}
			if errors.Is(err, ownernotice.ErrRateLimited) != tc.rateLimited {
				t.Errorf("rate limited = %v, want %v (%v)", errors.Is(err, ownernotice.ErrRateLimited), tc.rateLimited, err)
			}
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q lacks %q", err, tc.wantText)
			}
		})
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	err := newDiscord(t, srv.URL+secretPath, srv.Client()).Send(context.Background(), sample)
	if !errors.Is(err, ownernotice.ErrRateLimited) || !strings.Contains(err.Error(), "retry after 3s") {
		t.Fatalf("err = %v", err)
	}
}

// TestWebhookURLNeverLeaks drives every failure path with a debug-level
// logger and checks neither errors nor log lines carry the secret path.
func TestWebhookURLNeverLeaks(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	// A server that echoes the request path in its error message.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": "bad request to " + r.URL.Path})
	}))
	defer echo.Close()
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"retry_after":2}`)
	}))
	defer limited.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer slow.Close()
	defer close(hang)

	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		url  string
		ctx  context.Context
	}{
		{"echoing 400", echo.URL + secretPath, context.Background()},
		{"429", limited.URL + secretPath, context.Background()},
		{"refused connection", closedURL + secretPath, context.Background()},
		{"canceled", slow.URL + secretPath, canceled},
		{"malformed", "http://[::1]:namedport" + secretPath, context.Background()},
	}
	var errs []error
	for _, tc := range cases {
		d, err := ownernotice.New(ownernotice.Config{WebhookURL: tc.url, Log: log})
		if err == nil {
			err = d.Send(tc.ctx, sample)
		}
		if err == nil {
			t.Errorf("%s: want an error", tc.name)
			continue
		}
		errs = append(errs, err)
		if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "1234567890") {
			t.Errorf("%s: error leaks the webhook: %v", tc.name, err)
		}
	}
	if !errors.Is(errs[3], context.Canceled) {
		t.Errorf("canceled send does not wrap context.Canceled: %v", errs[3])
	}
	if strings.Contains(logs.String(), "s3cr3t") {
		t.Errorf("log leaks the webhook:\n%s", logs.String())
	}
	// The off switch logs once and returns nil; on logs once without the URL.
	logs.Reset()
	if f := ownernotice.FromWebhook("", nil, log); f != nil {
		t.Error("empty webhook URL gave a sender")
	}
	if f := ownernotice.FromWebhook(echo.URL+secretPath, nil, log); f == nil {
		t.Error("webhook URL gave no sender")
	}
	if n := strings.Count(logs.String(), "\n"); n != 2 || strings.Contains(logs.String(), "s3cr3t") {
		t.Errorf("start logs (%d lines):\n%s", n, logs.String())
	}
}

// newDiscord is ownernotice.New for a URL the test knows to be good.
func newDiscord(t *testing.T, webhookURL string, client *http.Client) *ownernotice.Discord {
	t.Helper()
	d, err := ownernotice.New(ownernotice.Config{WebhookURL: webhookURL, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNewRefusesABadWebhookURL: New validates instead of sending to a URL
// that cannot work, and its error never quotes the secret.
func TestNewRefusesABadWebhookURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "discord.com/api/webhooks/1/s3cr3t", "ftp://discord.com/api/webhooks/1/s3cr3t", "https:///s3cr3t", "http://[::1]:namedport/s3cr3t"} {
		d, err := ownernotice.New(ownernotice.Config{WebhookURL: u})
		if err == nil || d != nil {
			t.Errorf("New(%q) = %v, %v; want an error", u, d, err)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("New(%q) error quotes the secret: %v", u, err)
		}
	}
}
