package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrUnreachable matches (errors.Is) every error of a request that got no
// HTTP answer at all: refused connection, unknown host, timeout.
var ErrUnreachable = errors.New("client: cannot reach the server")

// APIError is a non-2xx answer: the status and the server's message.
type APIError struct {
	Status  int
	Message string
}

// Error returns the server's message with its status.
func (e *APIError) Error() string {
	return fmt.Sprintf("%s (HTTP %d)", e.Message, e.Status)
}

// UnreachableError says which server could not be reached and why.
type UnreachableError struct {
	Server string
	Err    error
}

// Error names the server and the cause.
func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach the server at %s: %v", e.Server, e.Err)
}

// Unwrap returns the transport error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnreachable) true.
func (e *UnreachableError) Is(target error) bool { return target == ErrUnreachable }

// Client talks to one mangabookmark server with one token. It is safe for
// concurrent use.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the default HTTP client (10 s timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// New returns a Client for the server at baseURL ("http://127.0.0.1:8080")
// sending token as the bearer token.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: server %q is not an http(s) URL such as http://127.0.0.1:8080", baseURL)
	}
	c := &Client{base: u, token: token, http: &http.Client{Timeout: 10 * time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Server returns the base URL the client talks to.
func (c *Client) Server() string { return c.base.String() }

// do sends one request; in is encoded as the JSON body when non-nil and the
// 2xx answer is decoded into out when non-nil.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	u := *c.base
	u.Path = c.base.Path + path
	u.RawQuery = query.Encode()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("client: encode %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("client: %s %s: %w", method, path, ctx.Err())
		}
		return &UnreachableError{Server: c.base.String(), Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &UnreachableError{Server: c.base.String(), Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return apiError(resp.StatusCode, raw)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("client: %s %s: the answer is not the expected JSON: %w", method, path, err)
	}
	return nil
}

func apiError(status int, raw []byte) *APIError {
	var body struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && body.Error != "" {
		return &APIError{Status: status, Message: body.Error}
	}
	return &APIError{Status: status, Message: "the server answered " + http.StatusText(status)}
}

func pathEscape(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(p))
	}
	return b.String()
}
