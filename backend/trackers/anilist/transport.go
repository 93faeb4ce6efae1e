package anilist

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/trackers"
)

// gqlError is one entry of a GraphQL answer's errors. Both fields are
// read leniently: a hostile answer's wrong types make them empty, never
// an error of their own.
type gqlError struct {
	Message string
	Status  int
}

func (e *gqlError) UnmarshalJSON(b []byte) error {
	var v struct {
		Message json.RawMessage `json:"message"`
		Status  json.RawMessage `json:"status"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	_ = json.Unmarshal(v.Message, &e.Message)
	_ = json.Unmarshal(v.Status, &e.Status)
	return nil
}

// envelope is a GraphQL answer.
type envelope struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

// post sends one document and decodes its data into out, through the
// Caller's loop (the limiter, 429s asked again); once maps AniList's
// refusals to the trackers errors. The token goes only into the
// Authorization header; no error quotes it.
func (c *Client) post(ctx context.Context, kind, token, document string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": document, "variables": vars})
	if err != nil {
		return fmt.Errorf("anilist: %s: encode request: %w", kind, err)
	}
	return c.caller.Do(ctx, kind, func() (string, error) {
		err := c.once(ctx, kind, token, body, out)
		return trackers.ResultOf(err), err
	})
}

// once is one attempt.
func (c *Client) once(ctx context.Context, kind, token string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.apiURL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("anilist: %s: %w", kind, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "mangabookmark-trackers")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.caller.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("anilist: %s: %w", kind, ctx.Err())
		}
		// The error names the API URL (no secret) and the cause; the
		// token travels only in a header, which it never quotes.
		return fmt.Errorf("anilist: %s: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return c.caller.HoldFor429(kind, c.retryAfter(resp.Header))
	}
	c.noteRemaining(resp.Header)
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.caller.MaxBody+1))
	if err != nil {
		return fmt.Errorf("anilist: %s: read answer: %w: %w", kind, trackers.ErrUnavailable, err)
	}
	if int64(len(raw)) > c.caller.MaxBody {
		return fmt.Errorf("anilist: %s: answer over %d bytes: %w", kind, c.caller.MaxBody, trackers.ErrAnswerTooLarge)
	}
	var env envelope
	jsonErr := json.Unmarshal(raw, &env)
	redact(env.Errors, token)
	if err := refusal(kind, resp.StatusCode, env.Errors); err != nil {
		return err
	}
	if jsonErr != nil {
		return fmt.Errorf("anilist: %s: answer is not GraphQL JSON: %w", kind, trackers.ErrBadAnswer)
	}
	if len(env.Errors) > 0 || len(env.Data) == 0 || string(env.Data) == "null" {
		return fmt.Errorf("anilist: %s: answer has no data (%s): %w", kind, firstMessage(env.Errors), trackers.ErrBadAnswer)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("anilist: %s: answer's data is not the documented shape: %w", kind, trackers.ErrBadAnswer)
	}
	return nil
}

// refusal maps an answer's status and GraphQL errors to the trackers
// errors, or nil for a 2xx answer to decode.
func refusal(kind string, status int, errs []gqlError) error {
	has := func(pred func(gqlError) bool) bool {
		for _, e := range errs {
			if pred(e) {
				return true
			}
		}
		return false
	}
	invalidToken := has(func(e gqlError) bool { return strings.EqualFold(strings.TrimSpace(e.Message), "invalid token") })
	notFound := status == http.StatusNotFound || has(func(e gqlError) bool {
		// A 404 in the error, or a 400 whose message says so (a list asked
		// for a user AniList does not know or shows to nobody).
		return e.Status == http.StatusNotFound || strings.Contains(strings.ToLower(e.Message), "not found")
	})
	switch {
	case status == http.StatusUnauthorized || invalidToken:
		return fmt.Errorf("anilist: %s: HTTP %d: %w", kind, status, trackers.ErrTokenRefused)
	case notFound && kind == trackers.KindList:
		return fmt.Errorf("anilist: %s: HTTP %d: %w", kind, status, trackers.ErrNoSuchUser)
	case notFound && (kind == trackers.KindProgress || kind == trackers.KindSave):
		return fmt.Errorf("anilist: %s: HTTP %d: %w", kind, status, trackers.ErrNoSuchMedia)
	case status >= 500:
		return fmt.Errorf("anilist: %s: HTTP %d: %w", kind, status, trackers.ErrUnavailable)
	case status < 200 || status > 299:
		return fmt.Errorf("anilist: %s: HTTP %d (%s): %w", kind, status, firstMessage(errs), trackers.ErrBadAnswer)
	}
	return nil
}

// redact withholds every error message that echoes the token, or its
// start: AniList's own messages never do, but an answer is outside input.
func redact(errs []gqlError, token string) {
	if token == "" {
		return
	}
	probe := token[:min(len(token), 12)]
	for i := range errs {
		if strings.Contains(errs[i].Message, probe) {
			errs[i].Message = "(withheld: it echoes the token)"
		}
	}
}

// firstMessage is the first GraphQL error's message, quoted and cut to
// 120 bytes, for an error's text ("no message" when there is none);
// redact has withheld any that echoed the token.
func firstMessage(errs []gqlError) string {
	if len(errs) == 0 || errs[0].Message == "" {
		return "no message"
	}
	m := errs[0].Message
	if len(m) > 120 {
		m = m[:120]
	}
	return strconv.Quote(m)
}

// retryAfter is a 429's wait: Retry-After in seconds, else
// X-RateLimit-Reset (a Unix time) from now, else a minute (HoldFor429
// bounds it by trackers.MaxHold).
func (c *Client) retryAfter(h http.Header) time.Duration {
	if wait, ok := trackers.RetryAfterSeconds(h); ok {
		return wait
	}
	if reset, ok := c.reset(h); ok {
		return reset
	}
	return trackers.DefaultHold
}

// reset is how far X-RateLimit-Reset lies ahead (false when absent, not a
// number, or past).
func (c *Client) reset(h http.Header) (time.Duration, bool) {
	unix, err := strconv.ParseInt(strings.TrimSpace(h.Get("X-RateLimit-Reset")), 10, 64)
	if err != nil || unix <= 0 || unix > 1<<40 {
		return 0, false
	}
	d := time.Unix(unix, 0).Sub(c.caller.Limit.Now())
	return d, d > 0
}

// noteRemaining holds the limiter when an answer says the minute's
// requests are spent (X-RateLimit-Remaining: 0) until its reset, or a
// minute: the next request would only earn a 429 and AniList's timeout.
func (c *Client) noteRemaining(h http.Header) {
	if strings.TrimSpace(h.Get("X-RateLimit-Remaining")) != "0" {
		return
	}
	wait, ok := c.reset(h)
	if !ok {
		wait = trackers.DefaultHold
	}
	c.caller.Limit.Hold(c.caller.Limit.Now().Add(min(wait, trackers.MaxHold)))
}
