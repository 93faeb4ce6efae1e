package sitestest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"mangabookmark/backend/sites"
)

// Answer is one scripted reply: a response, or an error (ErrUnreachable,
// ErrChallenge, a timeout...) when no HTTP answer exists.
type Answer struct {
	Resp *sites.Response
	Err  error
}

// Fetcher is a fake route. It answers each request from the Answer set for
// its URL (Request.Data when set, else Request.Page), or from Default, or
// with a 404 when neither exists. It records every request. Safe for
// concurrent use.
type Fetcher struct {
	mu      sync.Mutex
	answers map[string]Answer
	// Default answers URLs with no Answer of their own; nil means 404.
	Default *Answer
	reqs    []sites.Request
}

var _ sites.Fetcher = (*Fetcher)(nil)

// NewFetcher returns an empty fake route.
func NewFetcher() *Fetcher { return &Fetcher{answers: map[string]Answer{}} }

// Set scripts the answer for one URL.
func (f *Fetcher) Set(rawURL string, a Answer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers[rawURL] = a
}

// SetBody scripts a response with a status, a Content-Type and a body.
func (f *Fetcher) SetBody(rawURL string, status int, contentType string, body []byte) {
	f.Set(rawURL, Answer{Resp: Response(rawURL, status, contentType, body)})
}

// SetError scripts an error for one URL.
func (f *Fetcher) SetError(rawURL string, err error) { f.Set(rawURL, Answer{Err: err}) }

// Requests returns a copy of the requests seen so far, in order.
func (f *Fetcher) Requests() []sites.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sites.Request(nil), f.reqs...)
}

// Fetch answers from the script. A cancelled context wins over the script.
func (f *Fetcher) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	target := req.Target()
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	a, ok := f.answers[target]
	if !ok && f.Default != nil {
		a, ok = *f.Default, true
	}
	f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sitestest: fetch %s: %w", target, err)
	}
	if !ok {
		return Response(target, http.StatusNotFound, "text/html", []byte("<h1>404</h1>")), nil
	}
	if a.Err != nil {
		return nil, fmt.Errorf("sitestest: fetch %s: %w", target, a.Err)
	}
	r := *a.Resp
	if r.FinalURL == nil {
		r.FinalURL, _ = url.Parse(target)
	}
	return &r, nil
}

// Response builds a Response as a route would return it.
func Response(rawURL string, status int, contentType string, body []byte) *sites.Response {
	u, _ := url.Parse(rawURL)
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &sites.Response{Status: status, Header: h, Body: body, FinalURL: u}
}
