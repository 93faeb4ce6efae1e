package imports_test

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store/dbtest"
)

// stampedRoute records, at the shared simulated clock's time, every
// request MangaDex gets and whether a list import or the Lane made it.
type stampedRoute struct {
	next  sites.Fetcher
	clock *lanestest.FakeClock
	mu    sync.Mutex
	got   map[[2]any]bool // {time, list?}
}

func (r *stampedRoute) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	r.mu.Lock()
	r.got[[2]any{r.clock.Now(), strings.Contains(req.Page, "/list/")}] = true
	r.mu.Unlock()
	return r.next.Fetch(ctx, req)
}

// A MangaDex list import and the MangaDex Lane take their fetches from one
// Pacer: a list read right after a Lane pass waits the Gap, and the Lane's
// first read after a list read waits it too (the review's info note: the
// reader kept its own Gap beside the Lane's, so MangaDex saw up to twice
// the agreed pace). Every read (one or more requests at one simulated
// instant) is at least one Gap from the one before, whoever made it.
func TestMangaDexListReadsAndTheLaneKeepOnePace(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
	reg := simtest.Registry(t, sim)
	md := reg.Get("mangadex")
	st := dbtest.New(t)
	ctx := context.Background()
	clock := lanestest.NewFakeClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	clock.SetActors(1) // the test goroutine is the one actor: a sleep jumps
	route := &stampedRoute{next: sitestest.Plain(t, sites.PlainOptions{}), clock: clock, got: map[[2]any]bool{}}
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: route, Clock: clock, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := imports.New(imports.Config{Store: st, Sites: reg, Now: clock.Now,
		MangaDexList: imports.MangaDexListReader(md, reg.Pacer(md.Name), route, clock)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.UpsertReader(ctx, "400000000000000003", "lister", nil)
	if err != nil {
		t.Fatal(err)
	}
	importList := func(n int) {
		t.Helper()
		p, err := imports.DecodeJSON(strings.NewReader(`{"mangadex_list":"https://mangadex.org/list/` + sim.MangaDexListID(n) + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Submit(ctx, r.ID, p); err != nil {
			t.Fatal(err)
		}
		if err := svc.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	importList(3)           // a list read; its Series are now due for the Lane
	m.RunPass(ctx, md.Name) // the Lane reads them
	importList(5)           // a list read right after the pass
	m.RunPass(ctx, md.Name) // and the Lane again

	route.mu.Lock()
	type read struct {
		at   time.Time
		list bool
	}
	var reads []read
	for k := range route.got {
		reads = append(reads, read{k[0].(time.Time), k[1].(bool)})
	}
	route.mu.Unlock()
	sort.Slice(reads, func(i, j int) bool { return reads[i].at.Before(reads[j].at) })
	lists, lane := 0, 0
	for i, rd := range reads {
		if rd.list {
			lists++
		} else {
			lane++
		}
		if i > 0 && rd.at.Sub(reads[i-1].at) < md.Gap {
			t.Errorf("a %s read %v after a %s read, under the Gap %v", kind(rd.list), rd.at.Sub(reads[i-1].at), kind(reads[i-1].list), md.Gap)
		}
	}
	if lists != 2 || lane < 4 {
		t.Fatalf("%d list reads and %d Lane reads, want 2 and both passes reading", lists, lane)
	}
}

func kind(list bool) string {
	if list {
		return "list"
	}
	return "Lane"
}
