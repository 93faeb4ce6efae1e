package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// ErrPrivate is wrapped by every refusal of a private or loopback address.
var ErrPrivate = errors.New("netguard: private address")

// Resolver is what Check asks for a host's addresses; net.DefaultResolver
// is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard checks outlet URLs and makes the clients that call them.
type Guard struct {
	// AllowPrivate lets outlets reach private and loopback addresses
	// (NOTIFY_ALLOW_PRIVATE=1: tests and home setups).
	AllowPrivate bool
	// Resolver resolves host names for Check; nil: net.DefaultResolver.
	Resolver Resolver
	// Timeout bounds one whole request, redirects included; 0: 5 s.
	// Connecting takes at most 3 s of it.
	Timeout time.Duration

	// stand is one loopback address this package's own tests let stand in
	// for a public server; the zero Addr (everywhere else) matches none.
	stand netip.Addr
}

func (g Guard) resolver() Resolver {
	if g.Resolver != nil {
		return g.Resolver
	}
	return net.DefaultResolver
}

// Check says, in one sentence a Reader can act on, why raw cannot be an
// outlet URL, or returns nil. It resolves a host name and refuses it when
// any of its addresses is private, unless AllowPrivate.
func (g Guard) Check(ctx context.Context, raw string) error {
	u, err := g.parse(raw)
	if err != nil || g.AllowPrivate {
		return err
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if Private(ip) {
			return fmt.Errorf("%w: %s is a private or loopback address; use a public address", ErrPrivate, host)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := g.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("netguard: the host %q does not resolve; check the URL", host)
	}
	for _, a := range addrs {
		if Private(a) {
			return fmt.Errorf("%w: %q resolves to %s, a private or loopback address; use a public address", ErrPrivate, host, a.Unmap())
		}
	}
	return nil
}

// parse checks the URL's shape: absolute http(s), a host, and no host
// spelled as a bare number (2130706433, 0x7f.1, 0177.0.0.1: forms some
// resolvers read as IPv4 addresses).
func (g Guard) parse(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("netguard: the URL must be an absolute http:// or https:// URL")
	}
	host := u.Hostname()
	if host == "" {
		return nil, errors.New("netguard: the URL has no host name")
	}
	if _, err := netip.ParseAddr(host); err != nil && numericHost(host) {
		return nil, fmt.Errorf("netguard: the host %q looks like a number, not a name or a dotted address; write the address as a.b.c.d", host)
	}
	return u, nil
}

// numericHost reports whether every label of host is a number (decimal,
// octal or hex), which inet_aton-style parsers take for an IPv4 address.
func numericHost(host string) bool {
	for _, label := range strings.Split(strings.TrimSuffix(host, "."), ".") {
		l := strings.ToLower(label)
		if l == "" {
			return false
		}
		if strings.HasPrefix(l, "0x") {
			l = l[2:]
			if l == "" {
				return true
			}
			if strings.Trim(l, "0123456789abcdef") != "" {
				return false
			}
			continue
		}
		if strings.Trim(l, "0123456789") != "" {
			return false
		}
	}
	return true
}
