package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/sites"
)

// document is what the wait learnt about the page it settled on.
type document struct {
	status      int
	header      http.Header
	url         string
	contentType string
	// redirected: the document is the answer to the navigation Fetch made,
	// through the Site's own HTTP redirects (not a page script's doing).
	redirected bool
}

// probe is probeJS's answer.
type probe struct {
	Fresh       bool   `json:"fresh"`
	State       string `json:"state"`
	Challenge   bool   `json:"challenge"`
	Status      int    `json:"status"`
	URL         string `json:"url"`
	ContentType string `json:"contentType"`
	Body        int    `json:"body"` // the document's body in bytes, once it has all come (else 0)
}

// watch collects the tab's events during one open: load events wake the
// wait early; the main frame's document requests give the status, headers,
// the URL after redirects and the bytes received, so a page too large to
// read is stopped while it streams.
type watch struct {
	frame  string
	limit  int
	wake   chan struct{}
	onOver func() // called (under mu) when the document passes the limit

	mu       sync.Mutex
	doc      *proto.NetworkResponse
	docReq   proto.NetworkRequestID
	navReq   proto.NetworkRequestID // the navigation's own request; HTTP redirects keep its id
	docBytes int
	lastURL  string
	tooLarge bool
}

func (w *watch) event(ev *cdp.Event) {
	switch ev.Method {
	case "Page.loadEventFired", "Page.domContentEventFired", "Page.frameStoppedLoading":
	case "Network.requestWillBeSent":
		var r proto.NetworkRequestWillBeSent
		if json.Unmarshal(ev.Params, &r) != nil || r.Type != proto.NetworkResourceTypeDocument ||
			string(r.FrameID) != w.frame || r.Request == nil {
			return
		}
		w.mu.Lock()
		w.lastURL, w.docReq, w.docBytes = r.Request.URL, r.RequestID, 0
		if w.navReq == "" {
			w.navReq = r.RequestID
		}
		w.mu.Unlock()
		return
	case "Network.responseReceived":
		var r proto.NetworkResponseReceived
		if json.Unmarshal(ev.Params, &r) != nil || r.Type != proto.NetworkResourceTypeDocument ||
			string(r.FrameID) != w.frame || r.Response == nil {
			return
		}
		w.mu.Lock()
		w.doc, w.docReq = r.Response, r.RequestID
		for k, v := range r.Response.Headers {
			if strings.EqualFold(k, "Content-Length") {
				if n, err := strconv.ParseInt(strings.TrimSpace(v.Str()), 10, 64); err == nil && n > int64(w.limit) {
					w.tooLarge = true
					w.onOver()
				}
			}
		}
		w.mu.Unlock()
	case "Network.dataReceived":
		var r proto.NetworkDataReceived
		if json.Unmarshal(ev.Params, &r) != nil {
			return
		}
		w.mu.Lock()
		if r.RequestID != w.docReq {
			w.mu.Unlock()
			return
		}
		w.docBytes += r.DataLength
		over := w.docBytes > w.limit && !w.tooLarge
		if over {
			w.tooLarge = true
			w.onOver()
		}
		w.mu.Unlock()
		if !over {
			return
		}
	default:
		return
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// mitigated reports whether the document at url came with Cloudflare's
// "cf-mitigated: challenge" header, a challenge whatever the page shows.
func (w *watch) mitigated(url string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.doc == nil || w.doc.URL != url {
		return false
	}
	for k, v := range w.doc.Headers {
		if strings.EqualFold(k, "Cf-Mitigated") && strings.EqualFold(strings.TrimSpace(v.Str()), "challenge") {
			return true
		}
	}
	return false
}

// over reports whether the document passed the size limit.
func (w *watch) over() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tooLarge
}

// navError names a failed navigation with the sites error that classifies
// it the way the plain route would: a redirect loop, a redirect off the
// Site, a body Chrome would not show (a download) or one too large.
func (w *watch) navError(site *sites.Site, page, text string) error {
	w.mu.Lock()
	last, doc, tooLarge := w.lastURL, w.doc, w.tooLarge
	w.mu.Unlock()
	msg := "navigate: " + text
	switch {
	case tooLarge:
		return fmt.Errorf("%s: %w", msg, sites.ErrTooLarge)
	case text == "net::ERR_TOO_MANY_REDIRECTS":
		return fmt.Errorf("%s: %w", msg, sites.ErrTooManyRedirects)
	case offSite(site, page, last):
		return fmt.Errorf("%s: redirected to %s: %w", msg, last, sites.ErrOffSite)
	case text == "net::ERR_ABORTED" && doc != nil && !showable(doc.MIMEType):
		return fmt.Errorf("%s: %s: %w", msg, doc.MIMEType, sites.ErrWrongType)
	}
	return &pageError{msg: msg}
}

// offSite reports whether the navigation ended up on a host that is not the
// Site's (or, without a Site, not the page's).
func offSite(site *sites.Site, page, last string) bool {
	if last == "" {
		return false
	}
	lu, err := url.Parse(last)
	if err != nil || lu.Host == "" {
		return false
	}
	if site != nil {
		return !site.OwnsHost(lu.Host)
	}
	pu, err := url.Parse(page)
	return err == nil && !strings.EqualFold(pu.Host, lu.Host)
}

// showable reports whether Chrome renders a document of that type rather
// than downloading it.
func showable(mime string) bool {
	mime = strings.ToLower(mime)
	return strings.HasPrefix(mime, "text/") || strings.Contains(mime, "html") ||
		strings.Contains(mime, "json") || strings.Contains(mime, "xml")
}

// open navigates the tab to page and waits, up to the challenge wait, for a
// fresh document that is loaded and shows no challenge.
func (b *Browser) open(ctx context.Context, c *conn, t *tab, site *sites.Site, page string) (*document, error) {
	wait := b.opts.challengeWait
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()

	// A navigation answers only once the document commits; one too large
	// to read is cut short as soon as its size shows.
	navCtx, stopNav := context.WithCancel(wctx)
	defer stopNav()
	w := &watch{frame: string(t.target), limit: b.opts.maxBody, wake: make(chan struct{}, 1), onOver: stopNav}
	c.setSink(w.event)
	defer c.setSink(nil)

	if err := b.evalIsolated(wctx, c, t, markJS, false, nil); err != nil {
		return nil, fmt.Errorf("mark page: %w", err)
	}
	var nav proto.PageNavigateResult
	if err := c.tabCall(navCtx, t, "Page.navigate", proto.PageNavigate{URL: page}, &nav); err != nil {
		if w.over() {
			return nil, fmt.Errorf("navigate: page over %d bytes: %w", b.opts.maxBody, sites.ErrTooLarge)
		}
		return nil, fmt.Errorf("navigate: %w", err)
	}
	if nav.ErrorText != "" {
		return nil, w.navError(site, page, nav.ErrorText)
	}
	if nav.LoaderID == "" { // same document: only the fragment changed
		if err := b.evalIsolated(wctx, c, t, unmarkJS, false, nil); err != nil {
			return nil, fmt.Errorf("unmark page: %w", err)
		}
	}

	tick := time.NewTicker(b.opts.pollEvery)
	defer tick.Stop()
	var challenged bool
	var interactiveSince time.Time
	for {
		if w.over() {
			return nil, fmt.Errorf("page over %d bytes: %w", b.opts.maxBody, sites.ErrTooLarge)
		}
		p, err := b.probe(wctx, c, t)
		switch {
		case err == nil && p.Fresh:
			challenged = p.Challenge || w.mitigated(p.URL)
			if !challenged {
				ready := p.State == "complete"
				if p.State == "interactive" {
					if interactiveSince.IsZero() {
						interactiveSince = b.opts.now()
					}
					ready = b.opts.now().Sub(interactiveSince) >= b.opts.settle
				}
				// The size seen in the network events may still be on its
				// way to the sink: look again now, and at the document's own
				// count, read with its state.
				if ready && (w.over() || p.Body > b.opts.maxBody) {
					return nil, fmt.Errorf("page over %d bytes: %w", b.opts.maxBody, sites.ErrTooLarge)
				}
				if ready {
					return w.document(p), nil
				}
			}
		case err != nil && !isProtocolError(err) && wctx.Err() == nil:
			var pageErr *pageError
			if !errors.As(err, &pageErr) {
				return nil, fmt.Errorf("probe: %w", err)
			}
			// A script error while the document changes: look again.
		}
		// Protocol errors here are the document being swapped under the
		// probe (a reload); the next probe sees the new one.
		select {
		case <-tick.C:
		case <-w.wake:
		case <-c.lost:
			return nil, fmt.Errorf("wait for page: connection lost")
		case <-t.gone:
			return nil, fmt.Errorf("wait for page: tab gone")
		case <-wctx.Done():
			if why := c.broken(); why != "" {
				return nil, fmt.Errorf("wait for page: %s", why)
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if challenged {
				return nil, fmt.Errorf("%w: still up after %s", sites.ErrChallenge, wait)
			}
			return nil, &pageError{msg: fmt.Sprintf("page not ready after %s", wait)}
		}
	}
}

// probe runs probeJS in the isolated world, where a page script cannot
// change (or swell) what it reads; a fresh document that shows no
// challenge there is asked cfGlobalJS in its own world.
func (b *Browser) probe(ctx context.Context, c *conn, t *tab) (probe, error) {
	var p probe
	if err := b.evalIsolated(ctx, c, t, probeJS, false, &p); err != nil {
		return probe{}, err
	}
	if !p.Fresh || p.Challenge {
		return p, nil
	}
	var cf bool
	if err := b.eval(ctx, c, t, cfGlobalJS, false, &cf); err != nil {
		return probe{}, err
	}
	p.Challenge = cf
	return p, nil
}

// document combines the probe with the network view of the same page.
func (w *watch) document(p probe) *document {
	d := &document{status: p.Status, url: p.URL, contentType: p.ContentType, header: http.Header{}}
	w.mu.Lock()
	r := w.doc
	d.redirected = r != nil && r.URL == p.URL && w.docReq == w.navReq
	w.mu.Unlock()
	if r != nil && (r.URL == p.URL || d.status == 0) {
		for k, v := range r.Headers {
			d.header.Set(k, v.Str())
		}
		if d.status == 0 {
			d.status = r.Status
		}
	}
	if d.header.Get("Content-Type") == "" && d.contentType != "" {
		d.header.Set("Content-Type", d.contentType)
	}
	return d
}
