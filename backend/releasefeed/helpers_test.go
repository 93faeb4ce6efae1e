package releasefeed_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

var t0 = time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)

// world is the real registry over a fresh database, a stand-in release
// list, and a Feed on a fake clock.
type world struct {
	st    *store.Store
	reg   *sites.Registry
	clock *lanestest.FakeClock
	mu    *releasefeedtest.Server
	feed  *releasefeed.Feed
}

func newWorld(t *testing.T, rows ...releasefeedtest.Row) *world {
	t.Helper()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{st: dbtest.New(t), reg: reg, clock: lanestest.NewFakeClock(t0), mu: releasefeedtest.Start(t, rows...)}
	w.feed = w.newFeed(t)
	return w
}

func (w *world) newFeed(t *testing.T) *releasefeed.Feed {
	t.Helper()
	c, err := releasefeed.NewClient(w.mu.URL, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f, err := releasefeed.New(releasefeed.Config{Store: w.st, Sites: w.reg, Client: c, Clock: w.clock})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// follow stores a followed Series read an hour's third ago (not due),
// with latest as its Latest Chapter and the given mu id ("" : none).
func (w *world) follow(t *testing.T, site, id, latest, mu string) {
	t.Helper()
	ctx := context.Background()
	checked := w.clock.Now().Add(-20 * time.Minute)
	storetest.Series(ctx, t, w.st, storetest.SeriesOpts{Site: site, ID: id, CheckedAt: &checked, LatestNumber: latest,
		CreatedAt: storetest.At(t0.Add(-48 * time.Hour))})
	if mu == "" {
		return
	}
	if _, err := w.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: site, SeriesID: id,
		IDs: []store.ExternalID{{Kind: "mu", Value: mu, Source: store.IDFromSite}}}}); err != nil {
		t.Fatal(err)
	}
}

// checked is the Series' latest_checked_at.
func (w *world) checked(t *testing.T, site, id string) time.Time {
	t.Helper()
	s, err := w.st.GetSeries(context.Background(), site, id)
	if err != nil {
		t.Fatal(err)
	}
	if s.LatestCheckedAt == nil {
		t.Fatalf("%s/%s never checked", site, id)
	}
	return *s.LatestCheckedAt
}

// due reports whether the Series was made due by a hint: checked at the
// Site's due cutoff of the read.
func (w *world) hinted(t *testing.T, site, id string, at time.Time) bool {
	t.Helper()
	return w.checked(t, site, id).Equal(at.Add(-w.reg.Get(site).Rest))
}

func (w *world) run(t *testing.T) releasefeed.Result {
	t.Helper()
	r, err := w.feed.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (w *world) state(t *testing.T) store.ReleaseFeedState {
	t.Helper()
	f, err := w.st.GetReleaseFeed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f
}
