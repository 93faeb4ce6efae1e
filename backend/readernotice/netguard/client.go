package netguard

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// maxRedirects is how many redirects an outlet request follows.
const maxRedirects = 3

// Outlet request bounds: connecting (TCP, then TLS) is quick for a host
// that is up, so a host that does not answer a connection is given up
// early; the answer then has the rest of the request's Timeout.
const (
	defaultTimeout = 5 * time.Second
	connectTimeout = 3 * time.Second
)

// Client returns an HTTP client for outlet requests: no proxy, every
// connection's address checked at dial time (after DNS, so a name that
// resolves differently from Check's answer still cannot reach a private
// address), each redirect's URL checked again, at most three redirects,
// and the whole request bounded by Timeout.
func (g Guard) Client() *http.Client {
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	connect := min(timeout, connectTimeout)
	d := &net.Dialer{Timeout: connect, Control: g.control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   connect,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return refuse("the outlet redirected more than %d times", maxRedirects)
			}
			if _, err := g.parse(req.URL.String()); err != nil {
				return refuse("a redirect was refused: %s", Reason(err))
			}
			if ip, err := netip.ParseAddr(req.URL.Hostname()); err == nil && g.refused(ip) {
				return refusePrivate("a redirect to %s, a private or loopback address, was refused", ip)
			}
			return nil
		},
	}
}

// control runs on every socket before it connects, with the address the
// resolver chose.
func (g Guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return refuse("connecting was refused: %s gave an unreadable address", network)
	}
	if g.refused(ap.Addr()) {
		return refusePrivate("connecting to %s, a private or loopback address, was refused", ap.Addr().Unmap())
	}
	return nil
}

// IsPrivate reports whether err is a refusal to reach a private address.
func IsPrivate(err error) bool { return errors.Is(err, ErrPrivate) }
