package discordhook_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/discordhook"
)

// The webhook's token is its path; Discord may echo it back in an error
// message, raw or escaped. No error text may carry either.
func TestErrorsNeverQuoteTheWebhook(t *testing.T) {
	t.Parallel()
	const rawPath = "/api/webhooks/42/tok%2Fen-s3cret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"bad hook ` + r.URL.EscapedPath() + ` and /api/webhooks/42/tok/en-s3cret"}`))
	}))
	defer srv.Close()
	h, err := discordhook.New(srv.URL+rawPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = h.Post(context.Background(), []byte(`{}`))
	var se *discordhook.StatusError
	if !errors.As(err, &se) || se.Code != 400 {
		t.Fatalf("want a 400 StatusError, got %v", err)
	}
	if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "<webhook>") {
		t.Fatalf("the error quotes the webhook's token: %q", err)
	}
	// A transport error names the host net/http failed on, never the path.
	srv.Close()
	err = h.Post(context.Background(), []byte(`{}`))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("transport error %v", err)
	}
}

func TestRateLimitCarriesDiscordsWait(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, header, body string
		want               time.Duration
	}{
		{"body", "", `{"retry_after": 1.5}`, 1500 * time.Millisecond},
		{"header", "3", `{}`, 3 * time.Second},
		{"neither", "", `not json`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("content type %q", r.Header.Get("Content-Type"))
				}
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			h, _ := discordhook.New(srv.URL+"/api/webhooks/1/x", srv.Client())
			err := h.Post(context.Background(), []byte(`{}`))
			var rl *discordhook.RateLimit
			if !errors.Is(err, discordhook.ErrRateLimited) || !errors.As(err, &rl) || rl.After != tc.want {
				t.Fatalf("got %v (%#v), want a wait of %s", err, rl, tc.want)
			}
		})
	}
}

func TestNewRefusesWithoutQuoting(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "ftp://discord.example/api/webhooks/1/s3cret", "/api/webhooks/1/s3cret", "http://%zz/s3cret"} {
		_, err := discordhook.New(u, nil)
		if !errors.Is(err, discordhook.ErrBadURL) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("New(%q) = %v", u, err)
		}
	}
}
