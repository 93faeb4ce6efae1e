package mangabaka

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"mangabookmark/backend/trackers"
)

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

// call sends one request through the Caller's loop (the limiter, 429s
// asked again) and returns the answer of any status but 429 and 401 (the
// token refused); a 404 is counted as no such media. The token goes only
// into the x-api-key header; no error quotes it.
func (c *Client) call(ctx context.Context, kind, method, path, token string, body any) (answer, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return answer{}, fmt.Errorf("mangabaka: %s: encode request: %w", kind, err)
		}
	}
	var a answer
	err := c.caller.Do(ctx, kind, func() (string, error) {
		var err error
		a, err = c.once(ctx, kind, method, path, token, payload)
		if err == nil && a.status == http.StatusNotFound {
			return trackers.ResultNoSuchMedia, nil
		}
		return trackers.ResultOf(err), err
	})
	return a, err
}

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
	resp, err := c.caller.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return answer{}, fmt.Errorf("mangabaka: %s: %w", kind, ctx.Err())
		}
		return answer{}, fmt.Errorf("mangabaka: %s: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		wait, ok := trackers.RetryAfterSeconds(resp.Header)
		if !ok {
			wait = trackers.DefaultHold
		}
		return answer{}, c.caller.HoldFor429(kind, wait)
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
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.caller.MaxBody+1))
	if err != nil {
		return answer{}, fmt.Errorf("mangabaka: %s: read answer: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	if int64(len(raw)) > c.caller.MaxBody {
		return answer{}, fmt.Errorf("mangabaka: %s: answer over %d bytes: %w", kind, c.caller.MaxBody, trackers.ErrAnswerTooLarge)
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
