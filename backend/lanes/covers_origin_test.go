package lanes_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/store"
)

// secretServer is another local service: it answers any path with an
// image, counting hits, as a service an attacker wants read back would.
func secretServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pngBytes)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// The private-address exception is exactly the override's scheme, host and
// port (issue 13 item 6): a cover URL on 127.0.0.1 at another port, on
// another name for the same address, or on another scheme is refused.
func TestCoverOverrideIsExactOrigin(t *testing.T) {
	t.Parallel()
	site, siteHits := secretServer(t)
	secret, secretHits := secretServer(t)
	_, sitePort, _ := net.SplitHostPort(strings.TrimPrefix(site.URL, "http://"))
	_, secretPort, _ := net.SplitHostPort(strings.TrimPrefix(secret.URL, "http://"))
	bad := map[string]string{
		"1": secret.URL + "/secret",                                // same host, another port
		"2": "http://localhost:" + sitePort + "/cover.png",         // another name for the host
		"3": "https://127.0.0.1:" + sitePort + "/cover.png",        // another scheme
		"4": "http://[::ffff:127.0.0.1]:" + secretPort + "/secret", // mapped address, another port
		"5": "http://127.0.0.1:" + secretPort + "/secret",
	}
	// One cover worker per Series: a heal finding every worker busy is
	// deferred to the Series' next read (by design), and on a
	// loaded machine the five refused fetches can still hold four workers
	// when the sixth Series is read.
	e := newEnv(t, func(c *lanes.Config) { c.CoverWorkers = len(bad) + 1 }, siteSpec{name: "over"})
	e.sites["over"].Origin, e.sites["over"].Overridden = site.URL, true
	e.seed(t, "over", len(bad)+1, t0.Add(-time.Hour))
	for id, u := range bad {
		e.ad["over"].set(id, okResult("1", u))
	}
	e.ad["over"].set("6", okResult("1", site.URL+"/cover.png")) // the override's own origin: fetched
	if res, _ := e.runPass(t, "over"); res.OK != len(bad)+1 {
		t.Fatalf("pass %+v", res)
	}
	e.m.WaitCovers()
	ctx := context.Background()
	for id, u := range bad {
		if _, err := e.st.GetCover(ctx, "over", id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("cover %s (%s) stored (%v); only the override's exact origin may be private", id, u, err)
		}
	}
	if n := secretHits.Load(); n != 0 {
		t.Errorf("the other local service was fetched %d times", n)
	}
	if _, err := e.st.GetCover(ctx, "over", "6"); err != nil || siteHits.Load() != 1 {
		t.Errorf("the cover on the override's own origin: %v, %d hits; want it stored with one hit", err, siteHits.Load())
	}
}

// An override naming a host (not an address) earns no exception: when its
// DNS answers a private address, the cover is refused at the dial. The
// machine's own host name stands in for such a name; it must resolve to a
// private address for the case to mean anything.
func TestCoverOverrideByNameResolvingPrivateIsRefused(t *testing.T) {
	t.Parallel()
	name, err := os.Hostname()
	if err != nil || name == "localhost" {
		t.Skipf("no host name other than localhost (%v)", err)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip4", name)
	if err != nil || len(addrs) == 0 || !addrs[0].IsLoopback() {
		t.Skipf("host name %q does not resolve to loopback here (%v %v)", name, addrs, err)
	}
	srv, hits := secretServer(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	origin := "http://" + name + ":" + port
	e := newEnv(t, nil, siteSpec{name: "named"})
	e.sites["named"].Origin, e.sites["named"].Overridden = origin, true
	e.seed(t, "named", 1, t0.Add(-time.Hour))
	e.ad["named"].set("1", okResult("1", origin+"/cover.png"))
	if res, _ := e.runPass(t, "named"); res.OK != 1 {
		t.Fatalf("pass %+v", res)
	}
	e.m.WaitCovers()
	if _, err := e.st.GetCover(context.Background(), "named", "1"); !errors.Is(err, store.ErrNotFound) || hits.Load() != 0 {
		t.Errorf("a cover on %s (resolving to %v) was fetched: %v, %d hits", origin, addrs[0], err, hits.Load())
	}
}
