package apitest

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// Tokens the fixture's Authenticator knows: the Readers admintest.Seed
// lays down with ids 1 (the Owner) and 2.
const (
	OwnerToken  = "owner-token"
	ReaderToken = "reader-token"
)

// Fixture is a running server over a seeded database.
type Fixture struct {
	Store  *store.Store
	Sites  *sites.Registry
	Lanes  *admintest.FakeLanes
	Server *httptest.Server
	// Metrics is the server's /metrics registry.
	Metrics *api.Metrics
}

// URL is the base URL of the running server.
func (f *Fixture) URL() string { return f.Server.URL }

// Start seeds a fresh database with admintest.Seed and starts the server
// at admintest.Now; both end with t.
func Start(t testing.TB) *Fixture {
	t.Helper()
	return start(t, true)
}

// StartEmpty is Start without the small world: a server over a fresh
// database for tests and benchmarks that lay down their own rows.
func StartEmpty(t testing.TB) *Fixture {
	t.Helper()
	return start(t, false)
}

func start(t testing.TB, seed bool) *Fixture {
	t.Helper()
	st := dbtest.New(t)
	reg := admintest.Registry(t)
	fl := admintest.NewFakeLanes()
	if seed {
		if err := admintest.Seed(context.Background(), st, admintest.Now); err != nil {
			t.Fatalf("apitest: seed: %v", err)
		}
	}
	metrics := api.NewMetrics()
	now := func() time.Time { return admintest.Now }
	adm, err := admin.New(admin.Config{Store: st, Sites: reg, Lanes: fl, Now: now})
	if err != nil {
		t.Fatalf("apitest: %v", err)
	}
	srv, err := api.New(api.Config{Store: st, Sites: reg, Auth: Auth{}, Admin: adm, Now: now,
		Metrics: metrics, Version: "test"})
	if err != nil {
		t.Fatalf("apitest: %v", err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &Fixture{Store: st, Sites: reg, Lanes: fl, Server: hs, Metrics: metrics}
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
	return auth.Identity{}, errors.New("apitest: unknown token")
}
