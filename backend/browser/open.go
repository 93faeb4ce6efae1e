package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
}

// probe is probeJS's answer.
type probe struct {
	Fresh       bool   `json:"fresh"`
	State       string `json:"state"`
	Challenge   bool   `json:"challenge"`
	Status      int    `json:"status"`
	URL         string `json:"url"`
	ContentType string `json:"contentType"`
}

// watch collects the tab's events during one open: load events wake the
// wait early, and main-frame document responses give status and headers.
type watch struct {
	frame string
	wake  chan struct{}

	mu  sync.Mutex
	doc *proto.NetworkResponse
}

func (w *watch) event(ev *cdp.Event) {
	switch ev.Method {
	case "Page.loadEventFired", "Page.domContentEventFired", "Page.frameStoppedLoading":
	case "Network.responseReceived":
		var r proto.NetworkResponseReceived
		if json.Unmarshal(ev.Params, &r) != nil || r.Type != proto.NetworkResourceTypeDocument ||
			string(r.FrameID) != w.frame || r.Response == nil {
			return
		}
		w.mu.Lock()
		w.doc = r.Response
		w.mu.Unlock()
	default:
		return
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// open navigates the tab to page and waits, up to the challenge wait, for a
// fresh document that is loaded and shows no challenge.
func (b *Browser) open(ctx context.Context, c *conn, page string) (*document, error) {
	wait := b.opts.challengeWait
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()

	w := &watch{frame: string(c.target), wake: make(chan struct{}, 1)}
	c.setSink(w.event)
	defer c.setSink(nil)

	if err := b.eval(wctx, c, markJS, false, nil); err != nil {
		return nil, fmt.Errorf("mark page: %w", err)
	}
	var nav proto.PageNavigateResult
	if err := c.tabCall(wctx, "Page.navigate", proto.PageNavigate{URL: page}, &nav); err != nil {
		return nil, fmt.Errorf("navigate: %w", err)
	}
	if nav.ErrorText != "" {
		return nil, &pageError{msg: "navigate: " + nav.ErrorText}
	}
	if nav.LoaderID == "" { // same document: only the fragment changed
		if err := b.eval(wctx, c, unmarkJS, false, nil); err != nil {
			return nil, fmt.Errorf("unmark page: %w", err)
		}
	}

	tick := time.NewTicker(b.opts.pollEvery)
	defer tick.Stop()
	var challenged bool
	var interactiveSince time.Time
	for {
		var p probe
		err := b.eval(wctx, c, probeJS, false, &p)
		switch {
		case err == nil && p.Fresh:
			challenged = p.Challenge
			if !p.Challenge {
				ready := p.State == "complete"
				if p.State == "interactive" {
					if interactiveSince.IsZero() {
						interactiveSince = b.opts.now()
					}
					ready = b.opts.now().Sub(interactiveSince) >= b.opts.settle
				}
				if ready {
					return w.document(p), nil
				}
			}
		case err != nil && !isProtocolError(err) && wctx.Err() == nil:
			if _, ok := err.(*pageError); !ok {
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
		case <-c.gone:
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

// document combines the probe with the network view of the same page.
func (w *watch) document(p probe) *document {
	d := &document{status: p.Status, url: p.URL, contentType: p.ContentType, header: http.Header{}}
	w.mu.Lock()
	r := w.doc
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
