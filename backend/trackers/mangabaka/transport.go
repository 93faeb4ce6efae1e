package mangabaka

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/trackers"
)

// defaultHold is how long a 429 without a usable Retry-After holds the
// limiter (MangaBaka's limit is per minute).
const defaultHold = time.Minute

// maxHold is the longest an answer may hold the limiter.
const maxHold = 10 * time.Minute

// envelope is every MangaBaka answer: `status` follows the HTTP code, a
// success has `data` (an array when it lists, an object or `true` for
// one resource), a list has `pagination`. The error's `message` is never
// read into an error's text: an answer is outside input.
type envelope struct {
	Data       json.RawMessage `json:"data"`
	Pagination json.RawMessage `json:"pagination"`
}

// answer is one request's outcome: the HTTP status and the envelope.
type answer struct {
	status int
	env    envelope
}

// call sends one request and returns the answer of any status but 429
// (waited out and asked again, at most maxRetries times) and 401 (the
// token refused). It waits on the limiter before every attempt. The
// token goes only into the x-api-key header; no error quotes it.
func (c *Client) call(ctx context.Context, kind, method, path, token string, body any) (answer, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return answer{}, fmt.Errorf("mangabaka: %s: encode request: %w", kind, err)
		}
	}
	for attempt := 0; ; attempt++ {
		if err := c.limit.Wait(ctx); err != nil {
			c.rec.Request(Name, kind, trackers.ResultCanceled)
			return answer{}, fmt.Errorf("mangabaka: %s: wait for the rate limit: %w", kind, err)
		}
		a, err := c.once(ctx, kind, method, path, token, payload)
		result := trackers.ResultOf(err)
		if err == nil && a.status == http.StatusNotFound {
			result = trackers.ResultNoSuchMedia
		}
		c.rec.Request(Name, kind, result)
		var rl *rateLimited
		if !errors.As(err, &rl) {
			return a, err
		}
		c.log.Warn("mangabaka rate limited", "kind", kind, "wait", rl.wait, "attempt", attempt+1)
		if attempt >= maxRetries {
			return a, err
		}
	}
}

// rateLimited is a 429: it wraps trackers.ErrRateLimited and says how
// long the limiter was held.
type rateLimited struct{ wait time.Duration }

func (e *rateLimited) Error() string {
	return fmt.Sprintf("%s (asked to wait %s)", trackers.ErrRateLimited, e.wait)
}
func (e *rateLimited) Unwrap() error { return trackers.ErrRateLimited }

// once is one attempt. A 2xx or 404 answer is returned to the caller to
// read; every other status is one of the trackers errors.
func (c *Client) once(ctx context.Context, kind, method, path, token string, payload []byte) (answer, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.apiURL+path, rd)
	if err != nil {
		return answer{}, fmt.Errorf("mangabaka: %s: %w", kind, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "mangabookmark-trackers")
	req.Header.Set("x-api-key", token)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return answer{}, fmt.Errorf("mangabaka: %s: %w", kind, ctx.Err())
		}
		return answer{}, fmt.Errorf("mangabaka: %s: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		wait := retryAfter(resp.Header)
		c.limit.Hold(c.limit.Now().Add(wait))
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return answer{}, fmt.Errorf("mangabaka: %s: %w", kind, &rateLimited{wait: wait})
	case resp.StatusCode == http.StatusUnauthorized:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return answer{}, fmt.Errorf("mangabaka: %s: HTTP 401: %w", kind, trackers.ErrTokenRefused)
	case resp.StatusCode >= 500:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return answer{}, fmt.Errorf("mangabaka: %s: HTTP %d: %w", kind, resp.StatusCode, trackers.ErrUnavailable)
	case resp.StatusCode != http.StatusNotFound && (resp.StatusCode < 200 || resp.StatusCode > 299):
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return answer{}, fmt.Errorf("mangabaka: %s: HTTP %d: %w", kind, resp.StatusCode, trackers.ErrBadAnswer)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return answer{}, fmt.Errorf("mangabaka: %s: read answer: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	if int64(len(raw)) > c.maxBody {
		return answer{}, fmt.Errorf("mangabaka: %s: answer over %d bytes: %w", kind, c.maxBody, trackers.ErrAnswerTooLarge)
	}
	a := answer{status: resp.StatusCode}
	if resp.StatusCode == http.StatusNotFound {
		return a, nil // the caller says what a 404 means; its body is not read
	}
	if err := json.Unmarshal(raw, &a.env); err != nil {
		return answer{}, fmt.Errorf("mangabaka: %s: answer is not the documented JSON envelope: %w", kind, trackers.ErrBadAnswer)
	}
	if len(a.env.Data) == 0 || string(a.env.Data) == "null" {
		return answer{}, fmt.Errorf("mangabaka: %s: answer has no data: %w", kind, trackers.ErrBadAnswer)
	}
	return a, nil
}

// retryAfter is a 429's wait: Retry-After in seconds, else a minute; at
// most maxHold. (MangaBaka's exact Retry-After was never captured; the
// header's standard form is read.)
func retryAfter(h http.Header) time.Duration {
	wait := defaultHold
	if s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After"))); err == nil && s >= 0 {
		wait = time.Duration(s) * time.Second
	}
	return min(wait, maxHold)
}
