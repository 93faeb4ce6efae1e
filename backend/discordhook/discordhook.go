// Package discordhook is the one Discord webhook poster. The Owner's
// notices (backend/ownernotice) and the Readers' channel outlet
// (backend/readernotice) both post through it, so a webhook URL, which
// carries the webhook's token in its path, is redacted in one place and
// Discord's rate-limit answer is read in one place.
package discordhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrRateLimited is wrapped by Post's error when Discord answered 429.
var ErrRateLimited = errors.New("discordhook: discord rate limited")

// ErrBadURL is New's error for a URL that is not an absolute http(s) URL.
// It never quotes the URL.
var ErrBadURL = errors.New("discordhook: the webhook URL is not an absolute http(s) URL")

// Hook posts JSON bodies to one webhook. It is safe for concurrent use.
type Hook struct {
	url    string
	client *http.Client
}

// New returns a poster for webhookURL through client (nil: a client with
// a 10 s timeout), or ErrBadURL.
func New(webhookURL string, client *http.Client) (*Hook, error) {
	u, err := url.Parse(webhookURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, ErrBadURL
	}
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return &Hook{url: webhookURL, client: client}, nil
}

// StatusError is a non-2xx answer other than 429: the status and
// Discord's own message, already redacted.
type StatusError struct {
	Code    int
	Message string
}

func (e *StatusError) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("discordhook: discord webhook answered %d: %s", e.Code, e.Message)
	}
	return fmt.Sprintf("discordhook: discord webhook answered %d", e.Code)
}

// RateLimit is the error of a 429: it wraps ErrRateLimited and carries
// Discord's wait (retry_after in the body, else Retry-After).
type RateLimit struct{ After time.Duration }

func (e *RateLimit) Error() string {
	return fmt.Sprintf("%s: retry after %s", ErrRateLimited, e.After)
}
func (e *RateLimit) Unwrap() error { return ErrRateLimited }

// transportError keeps the cause (for errors.Is on context errors and
// net.Error) while its text is the redacted one.
type transportError struct {
	msg   string
	cause error
}

func (e *transportError) Error() string { return e.msg }
func (e *transportError) Unwrap() error { return e.cause }

// Post sends body (JSON) and wants a 2xx answer. No error it returns
// quotes the webhook URL or its path.
func (h *Hook) Post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		// The parse error quotes the URL: say only that it is unusable.
		return ErrBadURL
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "mangabookmark-notices")
	resp, err := h.client.Do(req)
	if err != nil {
		cause := err
		var ue *url.Error
		if errors.As(err, &ue) {
			cause = ue.Err
		}
		return &transportError{msg: "discordhook: post to discord webhook: " + h.Redact(cause.Error()), cause: cause}
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusTooManyRequests:
		return &RateLimit{After: retryAfter(resp.Header, answer)}
	default:
		return &StatusError{Code: resp.StatusCode, Message: h.Redact(message(answer))}
	}
}

// Redact removes the webhook URL, and its path (which holds the token,
// raw or escaped), from s.
func (h *Hook) Redact(s string) string {
	s = strings.ReplaceAll(s, h.url, "<webhook>")
	if u, err := url.Parse(h.url); err == nil && len(u.Path) > 1 {
		if u.RawPath != "" {
			s = strings.ReplaceAll(s, u.RawPath, "/<webhook>")
		}
		s = strings.ReplaceAll(s, u.EscapedPath(), "/<webhook>")
		s = strings.ReplaceAll(s, u.Path, "/<webhook>")
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

// message pulls Discord's "message" out of an error body, short.
func message(body []byte) string {
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
