package lanes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// defaultCoverLimit is the largest cover image stored when Config.CoverLimit is unset.
const defaultCoverLimit = 2 << 20

// errPrivateAddress refuses a dial to an address a page should never make
// the backend reach.
var errPrivateAddress = errors.New("lanes: cover host resolves to a private, loopback or link-local address")

// coverHealer fetches and stores cover images in background goroutines so
// a slow cover host never eats a Lane's gap. A cover URL comes from a Site's
// page and is untrusted: http(s) only, a size limit, an image content type
// (never SVG, which could carry script when served back), and no private
// address unless the URL is on exactly the origin (scheme, host, port) of
// the Site's SITE_ORIGINS override and that override names a private
// address itself.
type coverHealer struct {
	st      *store.Store
	clock   Clock
	log     *slog.Logger
	client  *http.Client
	limit   int64
	version string // the build named in the User-Agent
	sem     chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	ctx     context.Context
	pending map[string]bool
}

func newCoverHealer(cfg Config, log *slog.Logger) *coverHealer {
	h := &coverHealer{st: cfg.Store, clock: cfg.Clock, log: log, client: cfg.CoverClient,
		limit: cfg.CoverLimit, version: cfg.Version, pending: map[string]bool{}, ctx: context.Background()}
	h.sem = make(chan struct{}, cfg.CoverWorkers) // New filled in the defaults
	if h.client == nil {
		h.client = guardedClient()
	}
	return h
}

func (h *coverHealer) start(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ctx = ctx
}

func (h *coverHealer) wait() { h.wg.Wait() }

// heal starts a background fetch of the cover unless one for the same
// Series is running or every worker is busy; a heal not started now is
// tried again after the Series' next good read (its cover is still not
// stored). It never blocks the caller.
func (h *coverHealer) heal(s *sites.Site, seriesID, rawURL string) {
	key := s.Name + "/" + seriesID
	h.mu.Lock()
	if h.pending[key] {
		h.mu.Unlock()
		return
	}
	select {
	case h.sem <- struct{}{}:
	default:
		h.mu.Unlock()
		h.log.Debug("cover heal deferred, every worker busy", "site", s.Name, "series_id", seriesID)
		return
	}
	h.pending[key] = true
	ctx := h.ctx
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		defer func() {
			h.mu.Lock()
			delete(h.pending, key)
			h.mu.Unlock()
			<-h.sem
		}()
		log := h.log.With("site", s.Name, "series_id", seriesID)
		c, err := h.fetch(ctx, s, rawURL)
		if err != nil {
			log.Info("cover not stored", "error", err)
			return
		}
		c.FetchedAt = h.clock.Now()
		if err := h.st.PutCover(context.WithoutCancel(ctx), s.Name, seriesID, c); err != nil {
			log.Error("cannot store a cover", "error", err)
		}
	}()
}

type allowKey struct{}

// fetch gets and validates one cover image.
func (h *coverHealer) fetch(ctx context.Context, s *sites.Site, rawURL string) (store.Cover, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return store.Cover{}, errors.New("lanes: cover URL is not a plain http(s) URL")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if a, ok := overrideAllowance(s); ok && a.matches(u) {
		ctx = context.WithValue(ctx, allowKey{}, a)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return store.Cover{}, fmt.Errorf("lanes: cover request: %w", err)
	}
	req.Header.Set("User-Agent", sites.UserAgent(h.version))
	req.Header.Set("Accept", "image/*")
	resp, err := h.client.Do(req)
	if err != nil {
		return store.Cover{}, fmt.Errorf("lanes: cover fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return store.Cover{}, fmt.Errorf("lanes: cover fetch: HTTP %d", resp.StatusCode)
	}
	ct, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(ct, "image/") || strings.Contains(ct, "svg") {
		return store.Cover{}, fmt.Errorf("lanes: cover content type %q is not a raster image", resp.Header.Get("Content-Type"))
	}
	if resp.ContentLength > h.limit {
		return store.Cover{}, fmt.Errorf("lanes: cover declares %d bytes, over %d", resp.ContentLength, h.limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, h.limit+1))
	if err != nil {
		return store.Cover{}, fmt.Errorf("lanes: cover read: %w", err)
	}
	if int64(len(body)) > h.limit {
		return store.Cover{}, fmt.Errorf("lanes: cover over %d bytes", h.limit)
	}
	if len(body) == 0 {
		return store.Cover{}, errors.New("lanes: empty cover")
	}
	return store.Cover{ContentType: ct, Body: body, SourceURL: rawURL}, nil
}

// allowance is the one origin where a cover may live on a private address:
// the Site's SITE_ORIGINS override, when it names a private IP address (or
// localhost) itself. A public name never earns it, so a public override
// whose DNS answers a private address is refused at the dial like any other.
type allowance struct {
	scheme, host, port string
	addr               netip.Addr // the override's address; invalid for localhost (any loopback)
}

// overrideAllowance is the Site's allowance, if it has one.
func overrideAllowance(s *sites.Site) (allowance, bool) {
	if !s.Overridden || s.Origin == "" {
		return allowance{}, false
	}
	u, err := url.Parse(s.Origin)
	if err != nil {
		return allowance{}, false
	}
	a := allowance{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: effectivePort(u)}
	if ip, err := netip.ParseAddr(a.host); err == nil && blockedAddr(ip) {
		a.addr = ip.Unmap()
		return a, true
	}
	return a, a.host == "localhost"
}

// matches reports whether u is on exactly the allowance's origin.
func (a allowance) matches(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, a.scheme) && strings.EqualFold(u.Hostname(), a.host) && effectivePort(u) == a.port
}

// dials reports whether the dialled address is the allowance's own.
func (a allowance) dials(ip netip.Addr, port string) bool {
	if port != a.port {
		return false
	}
	if a.addr.IsValid() {
		return ip.Unmap() == a.addr
	}
	return ip.Unmap().IsLoopback()
}

// effectivePort is u's port, or its scheme's default.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// guardedClient checks the address actually dialled (after DNS), so a
// public name resolving to a private address is refused too. Keep-alives
// are off so an allowed private connection is never reused for another
// request, and no proxy is used (it would hide the address).
func guardedClient() *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, ControlContext: func(ctx context.Context, network, address string, _ syscall.RawConn) error {
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return err
		}
		if a, ok := ctx.Value(allowKey{}).(allowance); blockedAddr(ip) && (!ok || !a.dials(ip, port)) {
			return errPrivateAddress
		}
		return nil
	}}
	tr := &http.Transport{
		DialContext:            d.DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  20 * time.Second,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("lanes: cover: too many redirects")
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return errors.New("lanes: cover: redirect to a non-http(s) URL")
		}
		// A private address is allowed only on the override's origin itself.
		if a, ok := req.Context().Value(allowKey{}).(allowance); ok && !a.matches(req.URL) {
			return errors.New("lanes: cover: redirect away from the Site's override origin")
		}
		return nil
	}}
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// blockedAddr reports addresses a cover fetch must not reach.
func blockedAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip) ||
		(ip.Is4() && ip.As4()[0] == 0)
}
