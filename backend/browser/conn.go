package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// conn is one DevTools connection with the one tab open on it. It owns one
// goroutine (pump) besides rod's socket reader; both end when the socket
// closes.
type conn struct {
	ws     *cdp.WebSocket
	frames *frameLimit // the socket as rod reads it
	client *cdp.Client
	lost   chan struct{} // closed when the socket's event stream has ended
	agent  string        // User-Agent the tab presents; "" keeps Chrome's

	mu      sync.Mutex
	tab     *tab                // the open tab; replaced by the Fetch holding it
	closing *tab                // a tab being closed, watched for its detach
	sink    func(ev *cdp.Event) // the running Fetch's listener, or nil
}

// tab is one page target and the session attached to it.
type tab struct {
	target  proto.TargetTargetID
	session proto.TargetSessionID
	gone    chan struct{} // closed when the tab crashed or was closed
	why     string        // set before gone closes
	crashed bool          // the renderer died (Inspector.targetCrashed); set before gone closes
	// detached is closed when Chrome lets go of the tab (closed, or its
	// session detached); a crashed tab stays attached until closed.
	detached chan struct{}

	// life ends with the tab or the connection, so calls on the tab end
	// rather than wait on a renderer that is gone.
	life context.Context
	end  context.CancelCauseFunc
}

var (
	errTabGone  = errors.New("tab gone")
	errConnLost = errors.New("connection lost")
)

// dial opens a DevTools connection to wsURL, whose frames are bounded to
// frameMax bytes, and starts its event pump.
func dial(ctx context.Context, wsURL string, frameMax int64) (*conn, error) {
	d := &deadlineDialer{max: frameMax}
	ws := &cdp.WebSocket{Dialer: d}
	if err := ws.Connect(ctx, wsURL, nil); err != nil {
		if d.conn != nil {
			_ = d.conn.Close()
		}
		return nil, err
	}
	// The handshake ran under the dial deadline; the connection itself
	// lives until it is dropped.
	_ = d.conn.SetDeadline(time.Time{})
	d.frames.on = true
	c := &conn{ws: ws, frames: d.frames, client: cdp.New().Start(ws), lost: make(chan struct{})}
	go c.pump()
	return c, nil
}

// deadlineDialer dials TCP and holds the handshake to the context's
// deadline, which rod's WebSocket would otherwise wait on forever.
type deadlineDialer struct {
	conn   net.Conn
	max    int64       // the frame bound
	frames *frameLimit // conn as rod reads it
}

func (d *deadlineDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	nc, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	d.conn = nc
	d.frames = &frameLimit{Conn: nc, max: d.max}
	return d.frames, nil
}

// pump drains every protocol event (rod's client blocks until each is
// taken), notes the tab's death and hands the tab's events to the sink.
func (c *conn) pump() {
	defer close(c.lost)
	defer func() {
		c.mu.Lock()
		t := c.tab
		c.mu.Unlock()
		if t != nil {
			t.end(errConnLost)
		}
	}()
	for ev := range c.client.Event() {
		c.mu.Lock()
		sink, t := c.sink, c.tab
		if closing := c.closing; closing != nil && ev.SessionID == string(closing.session) ||
			ev.Method == "Target.detachedFromTarget" && c.closing != nil {
			t, sink = c.closing, nil
		}
		c.mu.Unlock()
		if t == nil {
			continue
		}
		session := string(t.session)
		switch ev.Method {
		case "Inspector.targetCrashed":
			if ev.SessionID == session {
				c.markCrashed(t)
			}
		case "Inspector.detached":
			if ev.SessionID == session {
				c.markGone(t, "tab detached")
				c.markDetached(t)
			}
		case "Target.detachedFromTarget":
			var d proto.TargetDetachedFromTarget
			if json.Unmarshal(ev.Params, &d) == nil && string(d.SessionID) == session {
				c.markGone(t, "tab closed")
				c.markDetached(t)
			}
		}
		if sink != nil && ev.SessionID == session {
			sink(ev)
		}
	}
}

func (c *conn) markGone(t *tab, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-t.gone:
	default:
		t.why = why
		close(t.gone)
		t.end(errTabGone)
	}
}

// whyCrashed is broken's answer for a tab whose renderer died.
const whyCrashed = "tab crashed"

// markCrashed notes that t's renderer died while the browser lived on.
func (c *conn) markCrashed(t *tab) {
	c.mu.Lock()
	select {
	case <-t.gone:
	default:
		t.crashed = true
	}
	c.mu.Unlock()
	c.markGone(t, whyCrashed)
}

// markDetached notes that Chrome let go of t.
func (c *conn) markDetached(t *tab) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-t.detached:
	default:
		close(t.detached)
	}
}

// crashedTab reports whether the open tab's renderer crashed while the
// connection itself is still up: the page's doing (or its renderer's
// memory), not the sidecar's.
func (c *conn) crashedTab() bool {
	select {
	case <-c.lost:
		return false
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tab != nil && c.tab.crashed
}

// setSink installs the listener for the tab's events; nil removes it.
func (c *conn) setSink(f func(ev *cdp.Event)) {
	c.mu.Lock()
	c.sink = f
	c.mu.Unlock()
}

// current returns the open tab, or nil.
func (c *conn) current() *tab {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tab
}

// overran returns the size of the DevTools message that passed the frame
// bound and so ended the connection, or 0 when none did.
func (c *conn) overran() int64 { return c.frames.overran() }

// broken reports why the connection or its tab can no longer be used, or "".
func (c *conn) broken() string {
	select {
	case <-c.lost:
		if n := c.overran(); n > 0 {
			return fmt.Sprintf("%s: a DevTools message of %d bytes passed the bound", errConnLost, n)
		}
		return errConnLost.Error()
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tab == nil { // closed after a failed read; the next Fetch opens one
		return ""
	}
	select {
	case <-c.tab.gone:
		return c.tab.why
	default:
	}
	return ""
}

// call runs one protocol method; session "" addresses the browser.
func (c *conn) call(ctx context.Context, session proto.TargetSessionID, method string, params, out any) error {
	raw, err := c.client.Call(ctx, string(session), method, params)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// tabCall runs one protocol method on tab t; it ends early when the tab or
// the connection does.
func (c *conn) tabCall(ctx context.Context, t *tab, method string, params, out any) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(t.life, func() { cancel(context.Cause(t.life)) })
	defer stop()
	err := c.call(ctx, t.session, method, params, out)
	if err != nil && t.life.Err() != nil {
		// The call's own error is text only: it may be a *cdp.Error, and
		// wrapping it would make isProtocolError (a document swap, retried)
		// true for a tab that is gone.
		return fmt.Errorf("%w (%v)", context.Cause(t.life), err) //nolint:errorlint // deliberately not wrapped, see above
	}
	return err
}

// openTab creates the page target and attaches to it with the domains
// Fetch listens to. It becomes the connection's tab.
func (c *conn) openTab(ctx context.Context) error {
	var created proto.TargetCreateTargetResult
	if err := c.call(ctx, "", "Target.createTarget", proto.TargetCreateTarget{URL: "about:blank"}, &created); err != nil {
		return fmt.Errorf("create tab: %w", err)
	}
	var attached proto.TargetAttachToTargetResult
	if err := c.call(ctx, "", "Target.attachToTarget", proto.TargetAttachToTarget{TargetID: created.TargetID, Flatten: true}, &attached); err != nil {
		c.closeTarget(created.TargetID, nil)
		return fmt.Errorf("attach tab: %w", err)
	}
	t := &tab{target: created.TargetID, session: attached.SessionID, gone: make(chan struct{}), detached: make(chan struct{})}
	t.life, t.end = context.WithCancelCause(context.Background())
	c.mu.Lock()
	c.tab = t
	c.mu.Unlock()
	select {
	case <-c.lost: // the pump may have ended before it could see the tab
		t.end(errConnLost)
	default:
	}
	buf := 1 << 20
	for _, step := range []struct {
		method string
		params any
	}{
		{"Page.enable", proto.PageEnable{}},
		{"Inspector.enable", proto.InspectorEnable{}},
		// Network events carry the document's status, headers and size;
		// keep Chrome's body buffers small since bodies are read in the page.
		{"Network.enable", proto.NetworkEnable{MaxTotalBufferSize: &buf, MaxResourceBufferSize: &buf}},
	} {
		if err := c.tabCall(ctx, t, step.method, step.params, nil); err != nil {
			return fmt.Errorf("%s: %w", step.method, err)
		}
	}
	if c.agent != "" {
		ua := proto.NetworkSetUserAgentOverride{UserAgent: c.agent, AcceptLanguage: "en-US,en;q=0.9"}
		if err := c.tabCall(ctx, t, "Network.setUserAgentOverride", ua, nil); err != nil {
			return fmt.Errorf("set user agent: %w", err)
		}
	}
	return nil
}

// userAgent is the browser's own User-Agent without the "Headless" mark
// that headless Chrome adds and Cloudflare singles out.
func (c *conn) userAgent(ctx context.Context) (string, error) {
	var v proto.BrowserGetVersionResult
	if err := c.call(ctx, "", "Browser.getVersion", nil, &v); err != nil {
		return "", err
	}
	return strings.Replace(v.UserAgent, "HeadlessChrome/", "Chrome/", 1), nil
}

// closeTab closes the open tab, if any, while the sidecar still answers,
// and waits for Chrome to report it detached (closeTarget answers first; a
// crashed tab is still attached until then), so a caller counting tabs
// sees it closed.
func (c *conn) closeTab() {
	c.mu.Lock()
	t := c.tab
	c.tab, c.closing = nil, t
	c.mu.Unlock()
	if t == nil {
		return
	}
	c.closeTarget(t.target, t.detached)
	t.end(errTabGone)
	c.mu.Lock()
	c.closing = nil
	c.mu.Unlock()
}

// closeTarget closes a page target, waiting on gone (when not nil) for its
// detach; bounded, and skipped when the connection is lost.
func (c *conn) closeTarget(id proto.TargetTargetID, gone chan struct{}) {
	select {
	case <-c.lost:
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if c.call(ctx, "", "Target.closeTarget", proto.TargetCloseTarget{TargetID: id}, nil) != nil || gone == nil {
		return
	}
	select {
	case <-gone:
	case <-c.lost:
	case <-ctx.Done():
	}
}

// close closes the tab and the socket and waits for the pump to end, so
// nothing outlives the connection.
func (c *conn) close() {
	c.closeTab()
	_ = c.ws.Close()
	select {
	case <-c.lost:
	case <-time.After(5 * time.Second):
	}
}

// ping asks the browser for its version: the cheapest proof it answers.
func (c *conn) ping(ctx context.Context) error {
	return c.call(ctx, "", "Browser.getVersion", nil, nil)
}

// isProtocolError reports whether err is Chrome answering a call with an
// error, as opposed to the call not being answered at all.
func isProtocolError(err error) bool {
	var pe *cdp.Error
	return errors.As(err, &pe)
}
