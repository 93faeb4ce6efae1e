package readernotice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"mangabookmark/backend/readernotice/netguard"
)

// post sends body to target and wants a 2xx answer. The error it returns
// never quotes the URL (which may carry a token): only what went wrong.
func post(ctx context.Context, c *http.Client, target string, header http.Header, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return errors.New("readernotice: the outlet URL cannot be used")
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("User-Agent", "mangabookmark-notices")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("readernotice: %s", reason(err))
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
		return nil
	case refusal(code):
		return &statusError{code: code, refused: true}
	}
	return &statusError{code: resp.StatusCode}
}

// refusal reports whether a Reader's receiver answering code refuses for
// good: 401 and 403 (a revoked token or topic), 404 and 410 (removed).
// 429 and 5xx, and every other answer, are retried.
func refusal(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusGone:
		return true
	}
	return false
}

// statusError is a non-2xx answer; a refused one wraps ErrRefused.
type statusError struct {
	code    int
	refused bool
}

func (e *statusError) Error() string {
	if e.refused {
		return fmt.Sprintf("readernotice: the outlet answered HTTP %d (%s), which means it refuses notices for good; it is stopped until you set its URL again",
			e.code, http.StatusText(e.code))
	}
	return fmt.Sprintf("readernotice: the outlet answered HTTP %d", e.code)
}

func (e *statusError) Unwrap() error {
	if e.refused {
		return ErrRefused
	}
	return nil
}

// reason is err without the request URL net/http wraps it in.
func reason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case netguard.IsPrivate(err):
		return "the outlet address is private or loopback, which this server does not call"
	case errors.Is(err, context.DeadlineExceeded):
		return "the outlet did not answer in time"
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return "the outlet did not answer in time"
	}
	return "the outlet could not be reached: " + err.Error()
}
