package sites

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Plain route defaults.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTotalTimeout   = 30 * time.Second
	DefaultBodyLimit      = 5 << 20
	DefaultMaxRedirects   = 5
)

// UserAgent is the honest User-Agent the plain route sends for a build of
// that version ("dev" when empty). The version comes from the binary's
// link flags (main.version), handed down through PlainOptions.Version.
func UserAgent(version string) string {
	if version == "" {
		version = "dev"
	}
	return "mangabookmark/" + version + " (+self-hosted manga bookmark poller)"
}

// PlainOptions tunes the plain route. It keeps its name (not Config) as
// the options of one route among the package's many types. A zero field
// takes the default; a negative one is refused by NewPlain.
type PlainOptions struct {
	ConnectTimeout time.Duration     // DefaultConnectTimeout when zero
	TotalTimeout   time.Duration     // whole request including the body; DefaultTotalTimeout when zero
	BodyLimit      int64             // bytes; more is ErrTooLarge (Unfetchable); DefaultBodyLimit when zero
	MaxRedirects   int               // DefaultMaxRedirects when zero
	Transport      http.RoundTripper // nil: a fresh transport with ConnectTimeout
	Version        string            // the build named in the User-Agent; "dev" when empty
}

// Plain is the plain HTTPS route over net/http. Redirects are followed only
// within the Site's own hosts (ErrOffSite otherwise) and at most
// MaxRedirects times; a longer chain (a loop) is ErrTooManyRedirects, which
// classifies as Unfetchable: the Site answered, never with a document.
type Plain struct {
	opts   PlainOptions
	client *http.Client
}

var _ Fetcher = (*Plain)(nil)

// NewPlain builds the plain route, or an error naming the PlainOptions
// field that is negative; zero fields take the defaults.
func NewPlain(opts PlainOptions) (*Plain, error) {
	for _, f := range []struct {
		name string
		neg  bool
	}{
		{"ConnectTimeout", opts.ConnectTimeout < 0},
		{"TotalTimeout", opts.TotalTimeout < 0},
		{"BodyLimit", opts.BodyLimit < 0},
		{"MaxRedirects", opts.MaxRedirects < 0},
	} {
		if f.neg {
			return nil, fmt.Errorf("sites: new plain route: PlainOptions.%s is negative: want zero (the default) or more", f.name)
		}
	}
	if opts.ConnectTimeout == 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.TotalTimeout == 0 {
		opts.TotalTimeout = DefaultTotalTimeout
	}
	if opts.BodyLimit == 0 {
		opts.BodyLimit = DefaultBodyLimit
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	rt := opts.Transport
	if rt == nil {
		rt = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: opts.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   opts.ConnectTimeout,
			ResponseHeaderTimeout: opts.TotalTimeout,
			ForceAttemptHTTP2:     true,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
		}
	}
	p := &Plain{opts: opts}
	p.client = &http.Client{Transport: rt}
	return p, nil
}

// Fetch gets req.Target(), reading at most BodyLimit bytes. Only a usable
// HTTP answer (any status) is returned without error.
func (p *Plain) Fetch(ctx context.Context, req Request) (*Response, error) {
	target := req.Target()
	ctx, cancel := context.WithTimeout(ctx, p.opts.TotalTimeout)
	defer cancel()
	var send io.Reader
	if req.Body != nil {
		send = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(ctx, req.HTTPMethod(), target, send)
	if err != nil {
		return nil, fmt.Errorf("sites: plain: build request: %w", err)
	}
	if req.ContentType != "" {
		hreq.Header.Set("Content-Type", req.ContentType)
	}
	for k, vs := range req.Header {
		for _, v := range vs {
			hreq.Header.Add(k, v)
		}
	}
	hreq.Header.Set("User-Agent", UserAgent(p.opts.Version))
	if req.Accept != "" {
		hreq.Header.Set("Accept", req.Accept)
	}
	c := *p.client
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) > p.opts.MaxRedirects {
			return fmt.Errorf("sites: plain: %d redirects: %w", len(via), ErrTooManyRedirects)
		}
		if !sameSite(req.Site, via[0].URL, r.URL) {
			return fmt.Errorf("sites: plain: redirect to %s: %w", r.URL.Host, ErrOffSite)
		}
		return nil
	}
	resp, err := c.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("sites: plain: get %s: %w", redact(target), err)
	}
	defer resp.Body.Close()
	if resp.ContentLength > p.opts.BodyLimit {
		return nil, fmt.Errorf("sites: plain: declared %d bytes: %w", resp.ContentLength, ErrTooLarge)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.opts.BodyLimit+1))
	if int64(len(body)) > p.opts.BodyLimit {
		return nil, fmt.Errorf("sites: plain: body over %d bytes: %w", p.opts.BodyLimit, ErrTooLarge)
	}
	if err != nil {
		return nil, fmt.Errorf("sites: plain: read body: %w", err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body, FinalURL: resp.Request.URL}, nil
}

// sameSite allows a redirect to the first request's host or to any host
// the Site owns.
func sameSite(s *Site, first, next *url.URL) bool {
	if next.Scheme != "http" && next.Scheme != "https" {
		return false
	}
	if next.Host == first.Host {
		return true
	}
	return s != nil && s.OwnsHost(next.Host)
}

// redact keeps logs short: scheme, host and path only.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// IsTimeout reports whether err is a timeout of the route.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
