package sites

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// MaxURLLength bounds the URLs Canonicalize accepts.
const MaxURLLength = 2048

// Reasons Canonicalize rejects a URL: the Kind of its *URLError, whose
// Reason is the clause a person reads (URLReason); test the kind with
// errors.Is.
var (
	// ErrBadURL: not an absolute http(s) URL, too long, carries userinfo,
	// or names a host by IP literal.
	ErrBadURL = errors.New("not a usable Site URL")
	// ErrUnknownSite: the host belongs to no registered Site.
	ErrUnknownSite = errors.New("no registered Site serves this host")
	// ErrNoSeries: the host is a Site's, but the path names no Series.
	ErrNoSeries = errors.New("the URL names no Series")
)

// Canonicalize maps any Series or chapter URL of a registered Site to its
// Ref: the Site's name, the Series id and the canonical Series URL. It only
// parses; it never fetches, so it cannot be used as a proxy.
func (r *Registry) Canonicalize(raw string) (Ref, error) {
	raw = strings.TrimSpace(raw)
	if len(raw) > MaxURLLength {
		return Ref{}, badURL(fmt.Sprintf("it is %d characters, over the %d limit", len(raw), MaxURLLength))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Ref{}, badURL("it does not parse as a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Ref{}, badURL(fmt.Sprintf("only http and https links are accepted, not %q", u.Scheme))
	}
	if u.User != nil {
		return Ref{}, badURL("links with a user name or password are not accepted")
	}
	if u.Host == "" || u.Opaque != "" {
		return Ref{}, badURL("it names no host")
	}
	site := r.siteForHost(u)
	if site == nil {
		if ip := net.ParseIP(strings.Trim(u.Hostname(), "[]")); ip != nil {
			return Ref{}, badURL("IP address hosts are not accepted")
		}
		return Ref{}, &URLError{Reason: fmt.Sprintf("host %q is not one of the Sites (%s)", u.Hostname(), strings.Join(r.Names(), ", ")), Kind: ErrUnknownSite}
	}
	id, err := site.Adapter.SeriesID(u)
	if err != nil {
		var ue *URLError
		if errors.As(err, &ue) {
			return Ref{}, err
		}
		return Ref{}, &URLError{Site: site.Name, Reason: "the link names no Series of " + site.Name, Kind: ErrNoSeries}
	}
	return Ref{Site: site.Name, SeriesID: id, URL: site.Adapter.SeriesURL(site, id)}, nil
}

// siteForHost finds the Site for u's host: an override host matches with its
// port; a public host matches without a port or with its scheme's default.
func (r *Registry) siteForHost(u *url.URL) *Site {
	if s := r.byHost[normHost(u.Host)]; s != nil {
		return s
	}
	port := u.Port()
	defaultPort := port == "" || u.Scheme == "https" && port == "443" || u.Scheme == "http" && port == "80"
	if !defaultPort {
		return nil
	}
	host := u.Hostname()
	if net.ParseIP(host) != nil {
		return nil // IP literals only ever match as an override host
	}
	return r.byHost[normHost(host)]
}

// OwnsHost reports whether hostport (a URL's Host) is one of the Site's
// hosts, a "www." form of one, a subdomain of one (an API or image host such
// as api.mangadex.org), or the override origin's host.
func (s *Site) OwnsHost(hostport string) bool {
	hp := normHost(hostport)
	host := hp
	if h, p, err := net.SplitHostPort(hp); err == nil {
		host = h
		if p == "443" || p == "80" {
			hp = h
		}
	}
	for _, h := range s.Hosts {
		h = normHost(h)
		if hp == h {
			return true
		}
		if host == hp && net.ParseIP(host) == nil && strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}
