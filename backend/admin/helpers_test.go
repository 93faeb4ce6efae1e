package admin_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/api/admintest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// wakes records the Lanes woken; every poll switch is on.
type wakes struct {
	mu    sync.Mutex
	sites []string
}

func (w *wakes) Wake(site string) { w.mu.Lock(); w.sites = append(w.sites, site); w.mu.Unlock() }

func (w *wakes) Runtime(string) lanes.Runtime { return lanes.Runtime{Enabled: true} }

func (w *wakes) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.sites...)
}

// env is a Service over admintest's seeded world.
type env struct {
	st    *store.Store
	svc   *admin.Service
	clock *clock
	lanes *wakes
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st := dbtest.New(t)
	if err := admintest.Seed(context.Background(), st, admintest.Now); err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, clock: &clock{now: admintest.Now}, lanes: &wakes{}}
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
	if _, err := e.st.Pool().Exec(context.Background(),
		`INSERT INTO series (site, series_id, url, title) VALUES ($1, $2, 'https://'||$1||'.test/series/'||$2, 'Added')`, site, id); err != nil {
		t.Fatal(err)
	}
}
