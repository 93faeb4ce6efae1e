package sites

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// Errors the routes return (wrapped); each classifies as Unfetchable
// because the Site answered, just not with something usable.
var (
	// ErrTooLarge: the body (or its declared Content-Length) passed the limit.
	ErrTooLarge = errors.New("response body over the size limit")
	// ErrOffSite: a redirect pointed outside the Site's hosts.
	ErrOffSite = errors.New("redirected off the Site")
	// ErrTooManyRedirects: the redirect chain was too long (a loop).
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrWrongType: the body is not the kind of document asked for.
	ErrWrongType = errors.New("unexpected content type")
	// ErrUnusable: the body could not be decoded at all (truncated JSON).
	ErrUnusable = errors.New("body could not be decoded")
	// ErrPageCrashed: the browser route's tab crashed while it held this
	// Series' page (a renderer that ran out of memory or was killed) and
	// the browser itself answered on: the page's fault, not the sidecar's.
	ErrPageCrashed = errors.New("the page crashed its browser tab")
)

// statusError carries an HTTP status that ended a read.
type statusError struct{ Status int }

func (e *statusError) Error() string {
	return fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
}

// challengeMarkers are body fragments of a Cloudflare challenge page.
var challengeMarkers = [][]byte{
	[]byte("just a moment"),
	[]byte("challenges.cloudflare.com"),
	[]byte("__cf_chl"),
	[]byte("cf_chl_opt"),
	[]byte("challenge-error-title"),
}

// isChallenge reports whether a response is a Cloudflare challenge:
// "cf-mitigated: challenge" on any status, or a 403, 429 or 503 whose body
// carries a challenge marker.
func isChallenge(resp *Response) bool {
	if resp == nil {
		return false
	}
	if strings.EqualFold(strings.TrimSpace(resp.Header.Get("Cf-Mitigated")), "challenge") {
		return true
	}
	switch resp.Status {
	case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
	default:
		return false
	}
	head := resp.Body
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	head = bytes.ToLower(head)
	for _, m := range challengeMarkers {
		if bytes.Contains(head, m) {
			return true
		}
	}
	return false
}

// wafPath is where a Site's own WAF (Comix's, MangaFire's) puts its
// "Security check" interstitial; it answers 200.
const wafPath = "/@waf/"

// isWAFPage reports whether the answer is a first-party WAF interstitial:
// the request ended under /@waf/ on the Site.
func isWAFPage(resp *Response) bool {
	return resp.FinalURL != nil && strings.HasPrefix(resp.FinalURL.Path, wafPath)
}

// ClassifyResponse decides what an HTTP answer means before any parsing.
// OK means "usable: parse it"; every other outcome comes with an error
// saying why. A final URL outside the Site's hosts is Unfetchable.
func ClassifyResponse(site *Site, resp *Response) (Outcome, error) {
	if resp == nil {
		return Errors, errors.New("sites: no response")
	}
	if isChallenge(resp) {
		return Refused, fmt.Errorf("sites: HTTP %d challenge: %w", resp.Status, ErrChallenge)
	}
	if site != nil && resp.FinalURL != nil && resp.FinalURL.Host != "" && !site.OwnsHost(resp.FinalURL.Host) {
		return Unfetchable, fmt.Errorf("sites: landed on %s: %w", resp.FinalURL.Host, ErrOffSite)
	}
	if isWAFPage(resp) {
		return Refused, fmt.Errorf("sites: landed on the Site's security check %.200q: %w", resp.FinalURL.Path, ErrChallenge)
	}
	st := resp.Status
	switch {
	case st >= 200 && st < 300:
		return OK, nil
	case st == http.StatusNotFound || st == http.StatusGone:
		return NotFound, &statusError{st}
	case st >= 500:
		return Errors, &statusError{st}
	default: // other 4xx, and a 1xx/3xx that was not followed
		return Unfetchable, &statusError{st}
	}
}

// ClassifyError maps a route's error (no usable HTTP answer) to an outcome:
// ErrUnreachable is Unreachable, ErrChallenge is Refused, the plain route's
// size, redirect and type errors and a crashed browser tab are
// Unfetchable, and anything else
// (transport failure, timeout, cancellation) is Errors.
func ClassifyError(err error) Outcome {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, ErrUnreachable):
		return Unreachable
	case errors.Is(err, ErrChallenge):
		return Refused
	case errors.Is(err, ErrTooLarge), errors.Is(err, ErrOffSite),
		errors.Is(err, ErrTooManyRedirects), errors.Is(err, ErrWrongType),
		errors.Is(err, ErrUnusable), errors.Is(err, ErrPageCrashed):
		return Unfetchable
	}
	return Errors
}

// Kind is the kind of document an adapter expects from a fetch.
type Kind int

// Document kinds.
const (
	AnyKind Kind = iota
	HTML
	JSON
)

// CheckType reports ErrWrongType when the response's Content-Type does not
// fit the wanted kind. A missing Content-Type passes: the parser decides.
func CheckType(resp *Response, want Kind) error {
	ct := resp.Header.Get("Content-Type")
	if want == AnyKind || ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("sites: content type %q: %w", ct, ErrWrongType)
	}
	switch want {
	case HTML:
		if mt == "text/html" || mt == "application/xhtml+xml" {
			return nil
		}
	case JSON:
		if mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json" {
			return nil
		}
	}
	return fmt.Errorf("sites: content type %q: %w", mt, ErrWrongType)
}

// Fetch runs one request through a route and classifies the answer. When ok
// is false, res is the finished Result the adapter returns as is; when ok is
// true, resp is a 2xx answer of the wanted kind on the Site.
func Fetch(ctx context.Context, f Fetcher, req Request, want Kind) (resp *Response, res Result, ok bool) {
	resp, err := f.Fetch(ctx, req)
	if err != nil {
		return nil, Result{Outcome: ClassifyError(err), Err: err}, false
	}
	out, err := ClassifyResponse(req.Site, resp)
	if out != OK {
		return nil, Result{Outcome: out, Status: resp.Status, Err: err}, false
	}
	if err := CheckType(resp, want); err != nil {
		return nil, Result{Outcome: Unfetchable, Status: resp.Status, Err: err}, false
	}
	return resp, Result{Outcome: OK, Status: resp.Status}, true
}

// Fail builds a failed Result: an outcome other than OK, the status of the
// response it came from, and the error saying why.
func Fail(o Outcome, status int, err error) Result {
	return Result{Outcome: o, Status: status, Err: err}
}

// Done ends a read with the parser's verdict on its last response: the
// facts when out is OK, else a Fail with out and err.
func Done(f Facts, out Outcome, status int, err error) Result {
	if out != OK {
		return Fail(out, status, err)
	}
	return Result{Outcome: OK, Facts: f, Status: status}
}
