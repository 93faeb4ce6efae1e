package admin_test

import (
	"context"
	"testing"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// env is a Service over admintest's seeded world, on a clock the test
// moves (Advance) and Lanes that record their wakes.
type env struct {
	st    *store.Store
	svc   *admin.Service
	clock *lanestest.FakeClock
	lanes *admintest.FakeLanes
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st := dbtest.New(t)
	if err := admintest.Seed(context.Background(), st, admintest.Now); err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, clock: lanestest.NewFakeClock(admintest.Now), lanes: admintest.NewFakeLanes()}
	svc, err := admin.New(admin.Config{Store: st, Sites: admintest.Registry(t), Lanes: e.lanes, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	return e
}

// series is the Lane view's Series count of site.
func (e *env) series(t *testing.T, site string) int {
	t.Helper()
	l, err := e.svc.Lane(context.Background(), site)
	if err != nil {
		t.Fatal(err)
	}
	return l.Series
}

// addSeries inserts one more Series on site.
func (e *env) addSeries(t *testing.T, site, id string) {
	t.Helper()
	storetest.Series(context.Background(), t, e.st, storetest.SeriesOpts{Site: site, ID: id, Title: "Added"})
}
