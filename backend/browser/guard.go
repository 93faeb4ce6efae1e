package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/sites"
)

// blankJS asks the page to replace itself with about:blank. Location is
// unforgeable, so a page script cannot redefine it.
const blankJS = `location.replace('about:blank')`

// blank leaves the Site's page after a read, so none of its scripts, timers
// or connections run on between reads. The page is first asked to replace
// itself (the navigation commits in its own renderer and the old document
// ends with it, at about a fifth of the cost of Chrome's own navigation,
// which starts a new renderer and tears the old document down a while
// later). A page that cancels that (the Navigation API can) or does not
// answer gets Page.navigate, which it cannot refuse; a tab that fails even
// that is closed, and the next Fetch opens a fresh one.
func (b *Browser) blank(c *conn) {
	t := c.current()
	if t == nil || c.broken() != "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if b.leftFor(ctx, c, t, time.Second) {
		return
	}
	var nav proto.PageNavigateResult
	if err := c.tabCall(ctx, t, "Page.navigate", proto.PageNavigate{URL: "about:blank"}, &nav); err != nil || nav.ErrorText != "" {
		c.closeTab()
	}
}

// leftFor asks the page to replace itself with about:blank and reports
// whether the tab shows about:blank within wait.
func (b *Browser) leftFor(ctx context.Context, c *conn, t *tab, wait time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := b.eval(ctx, c, t, blankJS, false, nil); err != nil && !isProtocolError(err) {
		var pageErr *pageError
		if !errors.As(err, &pageErr) {
			return false
		}
	}
	for ctx.Err() == nil {
		var href string
		// Errors here are the document being swapped under the question.
		if b.eval(ctx, c, t, `location.href`, false, &href) == nil && href == "about:blank" {
			return true
		}
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Millisecond):
		}
	}
	return false
}

// denyDownloads tells the browser to refuse every download: a read wants
// a document to look at, never a file left on the sidecar's disk.
func (c *conn) denyDownloads(ctx context.Context) error {
	return c.call(ctx, "", "Browser.setDownloadBehavior",
		proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorDeny}, nil)
}

// stayed refuses a read whose document is not on the Site (or, without a
// Site, not on the page's host): a page that sent the tab elsewhere, to
// a local service or the sidecar's own DevTools port, must not have that
// document read as the Site's. The error is a plain page error (outcome
// errors): nothing of the document is used.
func stayed(req sites.Request, docURL string) error {
	u, err := url.Parse(docURL)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		if req.Site != nil && req.Site.OwnsHost(u.Host) {
			return nil
		}
		if pu, perr := url.Parse(req.Page); req.Site == nil && perr == nil && strings.EqualFold(pu.Host, u.Host) {
			return nil
		}
	}
	return &pageError{msg: fmt.Sprintf("the page left the Site for %.200q: read refused", docURL)}
}
