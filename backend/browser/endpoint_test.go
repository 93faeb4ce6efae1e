package browser

import (
	"context"
	"errors"
	"net"
	"net/url"
	"testing"
)

func TestByAddress(t *testing.T) {
	t.Parallel()
	lookup := func(_ context.Context, host string) ([]net.IPAddr, error) {
		switch host {
		case "chrome":
			return []net.IPAddr{{IP: net.ParseIP("fd00::5")}, {IP: net.ParseIP("172.18.0.3")}}, nil
		case "v6only":
			return []net.IPAddr{{IP: net.ParseIP("fd00::7")}}, nil
		}
		return nil, errors.New("no such host")
	}
	for _, tc := range []struct{ in, want string }{
		{"http://chrome:9222", "http://172.18.0.3:9222"},
		{"ws://chrome:9222/devtools/browser/abc", "ws://172.18.0.3:9222/devtools/browser/abc"},
		{"http://v6only:9222", "http://[fd00::7]:9222"},
		{"http://127.0.0.1:9222", "http://127.0.0.1:9222"},
		{"http://localhost:9222", "http://localhost:9222"},
		{"ws://[::1]:9222/devtools/browser/x", "ws://[::1]:9222/devtools/browser/x"},
		{"wss://browser.example/?token=t", "wss://browser.example/?token=t"},
		{"https://browser.example", "https://browser.example"},
	} {
		u := mustParse(t, tc.in)
		got, err := byAddress(context.Background(), u, lookup)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got.String() != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
	if _, err := byAddress(context.Background(), mustParse(t, "http://missing:9222"), lookup); err == nil {
		t.Error("unknown host: no error")
	}
}

func TestResolveEndpointRejectsOtherSchemes(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"file:///etc/passwd", "ftp://127.0.0.1:9222", "127.0.0.1:9222"} {
		if _, err := resolveEndpoint(context.Background(), in); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
