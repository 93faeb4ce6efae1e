package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	case "ws", "wss":
		return endpoint, nil
	case "http", "https":
	default:
		return "", fmt.Errorf("endpoint %q: want a ws:// or http:// URL", redact(u))
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
