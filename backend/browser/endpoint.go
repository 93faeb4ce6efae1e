package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// versionClient asks /json/version without keeping the connection: the
// question comes once per reconnect, and an idle keep-alive connection
// would outlive the Browser.
var versionClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// resolveEndpoint turns the configured endpoint into a DevTools WebSocket
// URL. ws:// and wss:// URLs are used as given; http(s)://host:port is asked
// for its browser URL at /json/version, the way Chrome publishes it.
func resolveEndpoint(ctx context.Context, endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("parse endpoint: %w", err)
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	default:
		return "", fmt.Errorf("endpoint %q: want a ws:// or http:// URL", redact(u))
	}
	if u, err = byAddress(ctx, u, net.DefaultResolver.LookupIPAddr); err != nil {
		return "", err
	}
	if u.Scheme == "ws" || u.Scheme == "wss" {
		return u.String(), nil
	}
	v := *u
	v.Path = strings.TrimSuffix(v.Path, "/") + "/json/version"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
	if err != nil {
		return "", err
	}
	res, err := versionClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: status %d", v.Path, res.StatusCode)
	}
	var version struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&version); err != nil {
		return "", fmt.Errorf("%s: %w", v.Path, err)
	}
	if version.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("%s: no webSocketDebuggerUrl", v.Path)
	}
	return version.WebSocketDebuggerURL, nil
}

// byAddress replaces a host name in a plain (ws, http) endpoint by its
// address. Chrome answers DevTools requests only when their Host header is
// an IP address or localhost, so http://chrome:9222 from a compose network
// would be refused as written. TLS endpoints (a hosted browser) keep their
// name, which their certificate needs.
func byAddress(ctx context.Context, u *url.URL, lookup func(context.Context, string) ([]net.IPAddr, error)) (*url.URL, error) {
	host := u.Hostname()
	if u.Scheme == "wss" || u.Scheme == "https" || host == "" || strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil {
		return u, nil
	}
	addrs, err := lookup(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("look up %s: no address", host)
	}
	ip := addrs[0].IP
	for _, a := range addrs { // Chrome's debugging port usually listens on IPv4
		if a.IP.To4() != nil {
			ip = a.IP
			break
		}
	}
	v := *u
	v.Host = ip.String()
	if ip.To4() == nil {
		v.Host = "[" + ip.String() + "]"
	}
	if port := u.Port(); port != "" {
		v.Host = net.JoinHostPort(ip.String(), port)
	}
	return &v, nil
}

// redact drops a query string and user info, where hosted sidecars keep
// their tokens, so an endpoint can be logged.
func redact(u *url.URL) string {
	v := *u
	v.User = nil
	if v.RawQuery != "" {
		v.RawQuery = "redacted"
	}
	return v.String()
}
