package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"mangabookmark/backend/sites"
)

// tabOpenTimeout bounds opening the tab on a fresh connection.
const tabOpenTimeout = 30 * time.Second

// ErrClosed is returned by Fetch and Ping after Close. It wraps
// sites.ErrUnreachable so a read cut short by shutdown writes no failure row.
var ErrClosed = fmt.Errorf("browser: closed: %w", sites.ErrUnreachable)

// ErrTabBusy is returned by a Fetch whose context ended while it waited for
// the one tab, held by other reads. It wraps sites.ErrRouteBusy (and so
// sites.ErrUnreachable): the read never reached the Site, so it is no
// evidence about the page, and the sidecar is not lost.
var ErrTabBusy = fmt.Errorf("browser: the tab stayed busy with other reads: %w", sites.ErrRouteBusy)

// Browser is the browser route: a sites.Fetcher that reads pages through
// one tab of a Chrome sidecar. It is safe for concurrent use; concurrent
// Fetches take turns on the tab.
type Browser struct {
	endpoint string
	opts     settings

	tab chan struct{} // one slot: the tab, held by the running Fetch

	mu     sync.Mutex // guards c, stale and closed; held while dialling
	c      *conn
	live   atomic.Pointer[conn] // c, for Connected without waiting on a dial
	stale  proto.TargetTargetID // tab of a lost connection, closed on reconnect
	closed bool
}

var _ sites.Fetcher = (*Browser)(nil)

// New returns a Browser for cfg.WSURL, or an error naming the Config field
// that cannot work (an empty or non-ws/http WSURL, a negative bound). It
// does not connect; the first Fetch or Ping does.
func New(cfg Config) (*Browser, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	return &Browser{endpoint: cfg.WSURL, opts: s, tab: make(chan struct{}, 1)}, nil
}

// Connected reports whether a live connection to the sidecar is held now.
// It never dials nor waits for one.
func (b *Browser) Connected() bool {
	c := b.live.Load()
	return c != nil && c.broken() == ""
}

// Ping connects if needed and checks that the sidecar answers. Its error
// wraps sites.ErrUnreachable when the sidecar cannot be reached.
func (b *Browser) Ping(ctx context.Context) error {
	c, _, err := b.conn(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, b.opts.dialTimeout)
	defer cancel()
	if err := c.ping(ctx); err != nil {
		b.drop(c, err)
		return fmt.Errorf("browser: ping: %w (%w)", sites.ErrUnreachable, err)
	}
	return nil
}

// Close closes the tab and the connection. Later calls return ErrClosed.
func (b *Browser) Close() error {
	b.mu.Lock()
	c := b.c
	b.c = nil
	b.live.Store(b.c)
	b.closed = true
	b.mu.Unlock()
	if c != nil {
		c.close()
	}
	return nil
}

// Fetch reads one document through the tab; see the package doc for the
// steps and for which errors wrap sites.ErrChallenge and
// sites.ErrUnreachable.
func (b *Browser) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	page, err := url.Parse(req.Page)
	if err != nil || (page.Scheme != "http" && page.Scheme != "https") {
		return nil, fmt.Errorf("browser: page %q is not an http(s) URL", req.Page)
	}
	select {
	case b.tab <- struct{}{}:
	case <-ctx.Done():
		// The read never reached the page: it says nothing about the
		// Series, so it classifies as unreachable (no failure row).
		return nil, fmt.Errorf("browser: wait for the tab: %w (%w)", ErrTabBusy, ctx.Err())
	}
	defer func() { <-b.tab }()

	c, t, err := b.conn(ctx)
	if err != nil {
		return nil, err
	}
	// Whatever the read's end, a tab still open leaves the Site's page, so
	// none of its timers or sockets run on between reads.
	defer b.blank(c)
	doc, err := b.open(ctx, c, t, req.Site, req.Page)
	if err != nil {
		return nil, b.fail(ctx, c, "open "+req.Page, err)
	}
	var res *sites.Response
	if req.Data != "" {
		req.Data = onLanded(req, doc.url)
		res, err = b.readData(ctx, c, t, req)
	} else {
		res, err = b.readPage(ctx, c, t, req, doc)
	}
	if err != nil {
		return nil, b.fail(ctx, c, "read", err)
	}
	return res, nil
}

// conn returns the live connection and its tab: it opens a tab when the
// last read closed it, and dials (and opens the tab) when there is no
// connection or the last one broke. The dial holds b.mu, so Connected and
// Ping wait for it.
func (b *Browser) conn(ctx context.Context) (*conn, *tab, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, nil, ErrClosed
	}
	if b.c != nil {
		if b.c.crashedTab() {
			// The tab's renderer died between reads: when the browser
			// answers, only the tab is replaced; when not, the
			// connection is.
			_ = b.crashed(b.c)
		}
		why := b.c.broken()
		if why == "" {
			if t := b.c.current(); t != nil {
				return b.c, t, nil
			}
			tctx, cancel := context.WithTimeout(ctx, tabOpenTimeout)
			err := b.c.openTab(tctx)
			cancel()
			if err == nil {
				return b.c, b.c.current(), nil
			}
			why = "open tab: " + err.Error()
		}
		b.opts.logger.Info("reconnecting", "reason", why)
		if t := b.c.current(); t != nil {
			b.stale = t.target
		}
		old := b.c
		b.c = nil
		b.live.Store(b.c)
		old.close()
	}
	dctx, cancel := context.WithTimeout(ctx, b.opts.dialTimeout)
	defer cancel()
	c, err := b.connect(dctx)
	if err != nil {
		return nil, nil, fmt.Errorf("browser: connect sidecar: %w (%w)", sites.ErrUnreachable, err)
	}
	// A new tab waits for a renderer to start, which a busy host makes slow.
	tctx, tcancel := context.WithTimeout(ctx, tabOpenTimeout)
	defer tcancel()
	c.agent = b.opts.userAgent
	if c.agent == "" {
		if c.agent, err = c.userAgent(tctx); err != nil {
			c.close()
			return nil, nil, fmt.Errorf("browser: version: %w (%w)", sites.ErrUnreachable, err)
		}
	}
	// Set on every connect: a restarted sidecar starts with its default
	// (save to its Downloads folder), and a Site page can answer with an
	// attachment. Without the setting no read runs.
	if err := c.denyDownloads(tctx); err != nil {
		c.close()
		return nil, nil, fmt.Errorf("browser: deny downloads: %w (%w)", sites.ErrUnreachable, err)
	}
	if err := c.openTab(tctx); err != nil {
		c.close()
		return nil, nil, fmt.Errorf("browser: open tab: %w (%w)", sites.ErrUnreachable, err)
	}
	if b.stale != "" {
		// The tab of a connection lost while the browser lived on is
		// still open there; after a browser restart this finds nothing.
		c.closeTarget(b.stale, nil)
		b.stale = ""
	}
	b.opts.logger.Info("connected")
	b.c = c
	b.live.Store(b.c)
	return c, c.current(), nil
}

// connect resolves the endpoint and dials it. A ws:// browser URL names
// one browser run by id; when the sidecar restarted, the handshake is
// refused and the current URL is asked of the same host's /json/version.
func (b *Browser) connect(ctx context.Context) (*conn, error) {
	wsURL, err := resolveEndpoint(ctx, b.endpoint)
	if err != nil {
		return nil, err
	}
	c, err := dial(ctx, wsURL, maxFrame(b.opts.maxBody))
	var bad *cdp.BadHandshakeError
	if err != nil && errors.As(err, &bad) {
		if u, perr := url.Parse(wsURL); perr == nil && (u.Scheme == "ws" || u.Scheme == "wss") {
			scheme := "http"
			if u.Scheme == "wss" {
				scheme = "https"
			}
			if alt, rerr := resolveEndpoint(ctx, scheme+"://"+u.Host); rerr == nil && alt != wsURL {
				return dial(ctx, alt, maxFrame(b.opts.maxBody))
			}
		}
	}
	return c, err
}

// drop forgets c (when it is still the current connection) and closes it,
// so the next Fetch dials again.
func (b *Browser) drop(c *conn, cause error) {
	b.opts.logger.Warn("sidecar lost", "error", cause)
	b.forget(c)
}

// forget is drop without the word "lost": the connection is closed and the
// next Fetch dials again.
func (b *Browser) forget(c *conn) {
	b.mu.Lock()
	if b.c == c {
		b.c = nil
		b.live.Store(b.c)
		if t := c.current(); t != nil {
			b.stale = t.target
		}
	}
	b.mu.Unlock()
	c.close()
}

// fail turns a failed step into Fetch's error. A challenge keeps its
// sentinel and the tab; a connection ended by a DevTools message over the
// frame bound becomes sites.ErrTooLarge (the Series' unfetchable: only
// what the page supplies grows a message that far) and is dialled again
// by the next Fetch, the sidecar not lost; a tab whose renderer crashed
// while the browser answers on becomes sites.ErrPageCrashed (the Series'
// unfetchable) and only the tab goes; a lost connection, a closed tab or a
// sidecar that stopped answering becomes sites.ErrUnreachable and drops
// the connection; anything else (the caller's cancellation, a page that
// failed to load, a sites size/redirect/type error, a script error) keeps
// its error and closes the tab.
func (b *Browser) fail(ctx context.Context, c *conn, op string, err error) error {
	if errors.Is(err, sites.ErrChallenge) {
		return fmt.Errorf("browser: %s: %w", op, err)
	}
	if n := c.overran(); n > 0 {
		b.opts.logger.Warn("a page's DevTools message passed the frame bound; the connection is dialled again",
			"bytes", n, "error", err)
		b.forget(c)
		// Dial again now: the page's tab, left open on the dropped
		// connection, is closed by the new one before Fetch returns, so
		// the page's timers and sockets do not run on until the next read.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.opts.dialTimeout+tabOpenTimeout)
		if _, _, rerr := b.conn(rctx); rerr != nil {
			b.opts.logger.Warn("could not dial again after a frame-bound overrun; the next read will", "error", rerr)
		}
		cancel()
		return fmt.Errorf("browser: %s: a DevTools message of %d bytes, over the %d-byte bound: %w (%w)",
			op, n, maxFrame(b.opts.maxBody), sites.ErrTooLarge, err)
	}
	if c.crashedTab() {
		if cerr := b.crashed(c); cerr != nil {
			b.drop(c, err)
			return fmt.Errorf("browser: %s: %w (%w; then %w)", op, sites.ErrUnreachable, err, cerr)
		}
		return fmt.Errorf("browser: %s: %w (%w)", op, sites.ErrPageCrashed, err)
	}
	if why := c.broken(); why != "" {
		b.drop(c, err)
		return fmt.Errorf("browser: %s: %w (%s: %w)", op, sites.ErrUnreachable, why, err)
	}
	var pageErr *pageError
	if ctx.Err() == nil && !isProtocolError(err) && !errors.As(err, &pageErr) {
		// No answer within our own bound: a slow Site or a hung sidecar.
		// Ask the browser itself to tell them apart.
		pctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		perr := c.ping(pctx)
		cancel()
		if perr != nil {
			b.drop(c, err)
			return fmt.Errorf("browser: %s: %w (%w)", op, sites.ErrUnreachable, err)
		}
	}
	// The sidecar is fine, but the tab may still be busy with what failed:
	// Chrome queues a tab's commands behind a navigation that never got an
	// answer, so one hanging Site would hold every later read. Close it;
	// the next Fetch opens a fresh one (cookies live in the browser, so a
	// cleared challenge stays cleared).
	c.closeTab()
	return fmt.Errorf("browser: %s: %w", op, err)
}

// crashed deals with a tab whose renderer died under a read. A renderer
// dies for its page (one that ran out of memory, or hit a renderer bug),
// or because the whole sidecar is going down; only the browser's own
// answer tells them apart. So the DevTools endpoint is asked, with the
// dial's bound (a browser tearing a renderer down on a busy host is slow
// to answer), before anything else: no answer is a lost sidecar (the
// caller drops the connection). An answer means the browser lives on:
// the crashed tab is closed and the next Fetch opens a fresh one on the
// same connection.
func (b *Browser) crashed(c *conn) error {
	ctx, cancel := context.WithTimeout(context.Background(), b.opts.dialTimeout)
	defer cancel()
	if err := c.ping(ctx); err != nil {
		return fmt.Errorf("ping after the tab crashed: %w", err)
	}
	b.opts.logger.Warn("tab crashed; the browser answers, so only the tab is replaced")
	c.closeTab()
	return nil
}

// pageError is a failure the page itself reported: a navigation error
// (DNS, refused connection to the Site), a rejected in-page fetch, a
// timeout waiting on the Site. It is never about the sidecar.
type pageError struct{ msg string }

func (e *pageError) Error() string { return e.msg }
