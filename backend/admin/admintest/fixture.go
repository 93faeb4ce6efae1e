package admintest

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// Tokens the fixture's Authenticator knows.
const (
	OwnerToken  = "owner-token"
	ReaderToken = "reader-token"
)

// Now is the fixture's fixed clock.
var Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// SiteNames is the registry order of the fixture's Sites.
var SiteNames = []string{"kagane", "comix", "mangadex", "weebcentral", "mangapill", "natomanga"}

// Fixture is a running server over a seeded database.
type Fixture struct {
	Store  *store.Store
	Sites  *sites.Registry
	Lanes  *FakeLanes
	Server *httptest.Server
	// Metrics is the server's /metrics registry.
	Metrics *api.Metrics
}

// URL is the base URL of the running server.
func (f *Fixture) URL() string { return f.Server.URL }

// Start seeds a fresh database and starts the server; both end with t.
func Start(t testing.TB) *Fixture {
	t.Helper()
	return start(t, true)
}

func start(t testing.TB, seed bool) *Fixture {
	t.Helper()
	st := dbtest.New(t)
	reg := Registry(t)
	fl := NewFakeLanes()
	if seed {
		if err := Seed(context.Background(), st, Now); err != nil {
			t.Fatalf("admintest: seed: %v", err)
		}
	}
	metrics := api.NewMetrics()
	now := func() time.Time { return Now }
	adm, err := admin.New(admin.Config{Store: st, Sites: reg, Lanes: fl, Now: now})
	if err != nil {
		t.Fatalf("admintest: %v", err)
	}
	srv, err := api.New(api.Config{Store: st, Sites: reg, Auth: Auth{}, Admin: adm, Now: now,
		Metrics: metrics, Version: "test"})
	if err != nil {
		t.Fatalf("admintest: %v", err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &Fixture{Store: st, Sites: reg, Lanes: fl, Server: hs, Metrics: metrics}
}

// Registry is the fixture's six Sites, three of them on the browser route,
// each on host {name}.test with sitestest's /series/{id} URLs.
func Registry(t testing.TB) *sites.Registry {
	t.Helper()
	var list []*sites.Site
	for _, n := range SiteNames {
		site, _ := sitestest.Site(n, n == "kagane" || n == "comix" || n == "natomanga")
		list = append(list, site)
	}
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatalf("admintest: registry: %v", err)
	}
	return reg
}

// Auth knows two tokens: the Owner's and one Reader's.
type Auth struct{}

// Authenticate resolves OwnerToken and ReaderToken.
func (Auth) Authenticate(_ context.Context, token string) (auth.Identity, error) {
	switch token {
	case OwnerToken:
		return auth.Identity{ReaderID: 1, TokenID: 1, DiscordID: "100", Name: "owner", Owner: true}, nil
	case ReaderToken:
		return auth.Identity{ReaderID: 2, TokenID: 2, DiscordID: "200", Name: "reader"}, nil
	}
	return auth.Identity{}, errors.New("admintest: unknown token")
}

// FakeLanes records wakes and answers a fixed runtime per Site.
type FakeLanes struct {
	mu      sync.Mutex
	runtime map[string]lanes.Runtime
	wakes   []string
}

// NewFakeLanes is the fixture's Lanes: every poll switch on, natomanga a
// browser Site without a sidecar.
func NewFakeLanes() *FakeLanes {
	fl := &FakeLanes{runtime: map[string]lanes.Runtime{}}
	for _, n := range SiteNames {
		fl.runtime[n] = lanes.Runtime{Enabled: true}
	}
	fl.runtime["natomanga"] = lanes.Runtime{Enabled: true, NoBrowser: true}
	return fl
}

// Wake records the Site woken.
func (l *FakeLanes) Wake(site string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wakes = append(l.wakes, site)
}

// Runtime answers the Site's fixed runtime.
func (l *FakeLanes) Runtime(site string) lanes.Runtime {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runtime[site]
}

// SetRuntime replaces one Site's runtime.
func (l *FakeLanes) SetRuntime(site string, rt lanes.Runtime) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runtime[site] = rt
}

// Wakes returns the Sites woken so far, in order.
func (l *FakeLanes) Wakes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.wakes...)
}

// DisabledRuntime is a Lane whose poll switch is off.
func DisabledRuntime() lanes.Runtime { return lanes.Runtime{} }
