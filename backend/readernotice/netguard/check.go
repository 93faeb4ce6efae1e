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

// ErrPrivate matches (errors.Is) every refusal of a private or loopback
// address.
var ErrPrivate = errors.New("netguard: private address")

// Error is a refused outlet URL, redirect or connection. Reason is one
// sentence a Reader can act on, without the package prefix.
type Error struct {
	Reason  string
	Private bool // the address is private or loopback (errors.Is ErrPrivate)
}

func (e *Error) Error() string { return "netguard: " + e.Reason }

// Is makes a private-address refusal match ErrPrivate.
func (e *Error) Is(target error) bool { return e.Private && target == ErrPrivate }

// Reason is the sentence a Reader reads for err, or "" when err is not a
// refusal of this package's.
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func refuse(format string, args ...any) *Error {
	return &Error{Reason: fmt.Sprintf(format, args...)}
}

func refusePrivate(format string, args ...any) *Error {
	return &Error{Reason: fmt.Sprintf(format, args...), Private: true}
}

// Resolver is what Check asks for a host's addresses; net.DefaultResolver
// is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard checks outlet URLs and makes the clients that call them.
type Guard struct {
	// AllowNets are the networks outlets may reach although they are
	// private or loopback (NOTIFY_ALLOW_NETS: a home setup's ntfy on the
	// LAN, tests on loopback). Every other private address stays refused.
	AllowNets []netip.Prefix
	// Resolver resolves host names for Check; nil: net.DefaultResolver.
	Resolver Resolver
	// Timeout bounds one whole request, redirects included; 0: 5 s.
	// Connecting takes at most 3 s of it.
	Timeout time.Duration
}

// Loopback is the allow-list of the loopback networks, for tests whose
// outlets are local servers.
func Loopback() []netip.Prefix {
	return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}

// refused reports whether an outlet must not reach ip: private and not in
// an allowed network (an IPv4-mapped address judged as its IPv4 form).
func (g Guard) refused(ip netip.Addr) bool {
	if !Private(ip) {
		return false
	}
	ip = ip.Unmap().WithZone("")
	for _, p := range g.AllowNets {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

func (g Guard) resolver() Resolver {
	if g.Resolver != nil {
		return g.Resolver
	}
	return net.DefaultResolver
}

// Check says, in one sentence a Reader can act on (an *Error; Reason gives
// it), why raw cannot be an outlet URL, or returns nil. It resolves a host
// name and refuses it when any of its addresses is private, unless that
// address is in AllowNets.
func (g Guard) Check(ctx context.Context, raw string) error {
	u, err := g.parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if g.refused(ip) {
			return refusePrivate("%s is a private or loopback address; use a public address", host)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := g.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return refuse("the host %q does not resolve; check the URL", host)
	}
	for _, a := range addrs {
		if g.refused(a) {
			return refusePrivate("%q resolves to %s, a private or loopback address; use a public address", host, a.Unmap())
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
		return nil, refuse("the URL must be an absolute http:// or https:// URL")
	}
	host := u.Hostname()
	if host == "" {
		return nil, refuse("the URL has no host name")
	}
	if _, err := netip.ParseAddr(host); err != nil && numericHost(host) {
		return nil, refuse("the host %q looks like a number, not a name or a dotted address; write the address as a.b.c.d", host)
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
