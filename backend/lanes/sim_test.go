package lanes_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// The real registry, the plain route and the Site simulator over HTTP: each
// scripted behaviour ends in the outcome the table names, and the Lane
// writes exactly what the table says. Browser Sites are read here through
// the plain route standing in as their browser route (the simulator's
// browser Sites answer plain clients when no script challenge is set); the
// browser route itself is tested in backend/browser.
func TestLaneAgainstSimulator(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	sim, reg := startSim(t, sitesim.Config{SeriesPerSite: 8, Now: clock.Now})
	st := fastStore(t)
	plain := sitestest.Plain(t, sites.PlainOptions{TotalTimeout: 5 * time.Second})
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: plain, Browser: plain, Clock: clock, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	modes := []struct {
		mode sitesim.Mode
		want sites.Outcome
	}{
		{sitesim.Steady, sites.OK}, {sitesim.Gone, sites.NotFound}, {sitesim.LayoutChanged, sites.NoChapter},
		{sitesim.ServerError, sites.Errors}, {sitesim.Forbidden, sites.Unfetchable}, {sitesim.WrongType, sites.Unfetchable},
		{sitesim.Challenge, sites.Refused},
	}
	covers := 0
	for _, s := range reg.All() {
		ids := sim.SeriesIDs(s.Name, len(modes))
		for i, id := range ids {
			storetest.Series(ctx, t, st, storetest.SeriesOpts{Site: s.Name, ID: id, URL: sim.SeriesURL(s.Name, id),
				CreatedAt: storetest.At(t0.Add(time.Duration(i-100) * time.Minute))})
			sim.SetSeries(s.Name, id, sitesim.Behavior{Mode: modes[i].mode})
		}
		clock.SetActors(1)
		res, _ := m.RunPass(ctx, s.Name)
		clock.SetActors(0)
		if res.Skip != "" || res.Checked != len(modes) || res.OK != 1 || res.NotFound != 1 || res.NoChapter != 1 ||
			res.Errors != 1 || res.Unfetchable != 2 || res.Refused != 1 {
			t.Errorf("%s: pass %+v", s.Name, res)
			continue
		}
		fails, _, err := st.AdminFailingList(ctx, store.AdminFailingFilter{Site: s.Name, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range fails {
			got[f.SeriesID] = f.Outcome
		}
		for i, id := range ids {
			want := modes[i].want
			if w, has := got[id]; want.WritesFailure() != has || (has && w != string(want)) {
				t.Errorf("%s %s (%s): failure row %q, want %s", s.Name, id, modes[i].mode, w, want)
			}
		}
		ser, err := st.GetSeries(ctx, s.Name, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if ser.LatestNumber != sim.Latest(s.Name, ids[0]) || ser.Title == "" || ser.LatestSeenAt == nil {
			t.Errorf("%s: good read stored %+v, simulator shows %s", s.Name, ser, sim.Latest(s.Name, ids[0]))
		}
		if ser.CoverURL != "" {
			covers++
			m.WaitCovers()
			if _, err := st.GetCover(ctx, s.Name, ids[0]); errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: cover %s not healed", s.Name, ser.CoverURL)
			}
		}
	}
	if covers == 0 {
		t.Error("no Site gave a cover URL; the heal path went untested")
	}
}
