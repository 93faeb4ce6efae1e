package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// conn is one DevTools connection with the one tab opened on it. It owns
// one goroutine (pump) besides rod's socket reader; both end when the
// socket closes.
type conn struct {
	ws      *cdp.WebSocket
	client  *cdp.Client
	lost    chan struct{} // closed when the socket's event stream has ended
	target  proto.TargetTargetID
	session proto.TargetSessionID

	// life ends when the tab or the connection does; calls on the tab end
	// with it rather than waiting on a renderer that is gone.
	life context.Context
	end  context.CancelCauseFunc

	mu      sync.Mutex
	sink    func(ev *cdp.Event) // the running Fetch's listener, or nil
	gone    chan struct{}       // closed when the tab crashed or was closed
	goneWhy string
}

// errTabGone ends calls on a tab that crashed or was closed.
var errTabGone = errors.New("tab gone")

// dial opens a DevTools connection to wsURL and starts its event pump.
func dial(ctx context.Context, wsURL string) (*conn, error) {
	d := &deadlineDialer{}
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
	c := &conn{
		ws:     ws,
		client: cdp.New().Start(ws),
		lost:   make(chan struct{}),
		gone:   make(chan struct{}),
	}
	c.life, c.end = context.WithCancelCause(context.Background())
	go c.pump()
	return c, nil
}

// deadlineDialer dials TCP and holds the handshake to the context's
// deadline, which rod's WebSocket would otherwise wait on forever.
type deadlineDialer struct {
	conn net.Conn
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
	return nc, nil
}

// pump drains every protocol event (rod's client blocks until each is
// taken), notes the tab's death and hands the rest to the current sink.
func (c *conn) pump() {
	defer close(c.lost)
	defer c.end(errors.New("connection lost"))
	for ev := range c.client.Event() {
		c.mu.Lock()
		sink, session := c.sink, string(c.session)
		c.mu.Unlock()
		switch ev.Method {
		case "Inspector.targetCrashed":
			if ev.SessionID == session {
				c.markGone("tab crashed")
			}
		case "Inspector.detached":
			if ev.SessionID == session {
				c.markGone("tab detached")
			}
		case "Target.detachedFromTarget":
			var d proto.TargetDetachedFromTarget
			if json.Unmarshal(ev.Params, &d) == nil && session != "" && string(d.SessionID) == session {
				c.markGone("tab closed")
			}
		}
		if sink != nil && session != "" && ev.SessionID == session {
			sink(ev)
		}
	}
}

func (c *conn) markGone(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.gone:
	default:
		c.goneWhy = why
		close(c.gone)
		c.end(errTabGone)
	}
}

// setSink installs the listener for the tab's events; nil removes it.
func (c *conn) setSink(f func(ev *cdp.Event)) {
	c.mu.Lock()
	c.sink = f
	c.mu.Unlock()
}

// broken reports why the connection or its tab can no longer be used, or "".
func (c *conn) broken() string {
	select {
	case <-c.lost:
		return "connection lost"
	default:
	}
	select {
	case <-c.gone:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.goneWhy
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

// tabCall runs one protocol method on the tab; it ends early when the tab
// or the connection does.
func (c *conn) tabCall(ctx context.Context, method string, params, out any) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.life, func() { cancel(context.Cause(c.life)) })
	defer stop()
	err := c.call(ctx, c.session, method, params, out)
	if err != nil && c.life.Err() != nil {
		return fmt.Errorf("%w (%v)", context.Cause(c.life), err)
	}
	return err
}

// openTab creates the one page target and attaches to it with the domains
// Fetch listens to.
func (c *conn) openTab(ctx context.Context) error {
	var created proto.TargetCreateTargetResult
	if err := c.call(ctx, "", "Target.createTarget", proto.TargetCreateTarget{URL: "about:blank"}, &created); err != nil {
		return fmt.Errorf("create tab: %w", err)
	}
	c.target = created.TargetID
	var attached proto.TargetAttachToTargetResult
	if err := c.call(ctx, "", "Target.attachToTarget", proto.TargetAttachToTarget{TargetID: c.target, Flatten: true}, &attached); err != nil {
		return fmt.Errorf("attach tab: %w", err)
	}
	c.mu.Lock()
	c.session = attached.SessionID
	c.mu.Unlock()
	buf := 1 << 20
	for _, step := range []struct {
		method string
		params any
	}{
		{"Page.enable", proto.PageEnable{}},
		{"Inspector.enable", proto.InspectorEnable{}},
		// Network events carry the document's status and headers; keep
		// Chrome's body buffers small since bodies are read in the page.
		{"Network.enable", proto.NetworkEnable{MaxTotalBufferSize: &buf, MaxResourceBufferSize: &buf}},
	} {
		if err := c.tabCall(ctx, step.method, step.params, nil); err != nil {
			return fmt.Errorf("%s: %w", step.method, err)
		}
	}
	return nil
}

// close closes the tab while the sidecar still answers, then the socket,
// and waits for the pump to end so nothing outlives the connection.
func (c *conn) close() {
	if c.broken() != "connection lost" && c.target != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if c.call(ctx, "", "Target.closeTarget", proto.TargetCloseTarget{TargetID: c.target}, nil) == nil {
			// closeTarget answers before the tab is gone; the detach
			// event says it is, so a caller counting tabs sees it closed.
			select {
			case <-c.gone:
			case <-c.lost:
			case <-ctx.Done():
			}
		}
		cancel()
	}
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
