package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/config"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// phoneClock is the demo phone's time in the test: two minutes a tick,
// as the demo's schedule.
type phoneClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *phoneClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *phoneClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestDemoPhoneSyncs: the demo's scripted phone against the demo's
// server (wire, the real API and phone sync) and simulator: its first
// sync stores its library, a chapter it reads moves the Owner's Progress
// (source sync), and a read made on the web shows read on the phone at
// its next sync, nothing else of its library changed.
func TestDemoPhoneSyncs(t *testing.T) {
	t.Parallel()
	const series = 12
	sim, err := demoSim(series, 2*time.Hour, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Close)
	reg, err := registry.FromEnv(sim.OriginsValue())
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	ctx := context.Background()
	start := time.Now().UTC().Truncate(time.Second)
	owner, _, err := demoLibrary(ctx, st, reg, sim, series, demoOwnerID, start)
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("demo-phone-test-token-key-0123456789abcdef")
	log := slog.New(slog.DiscardHandler)
	app, err := wire(config.Config{TokenKey: key, SiteOrigins: sim.OriginsValue(), PublicBaseURL: "http://127.0.0.1",
		OwnerDiscordID: demoOwnerID}, st, &Env{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app.handler)
	t.Cleanup(srv.Close)
	svc, err := auth.New(auth.Config{Store: st, TokenKey: key, OwnerDiscordID: demoOwnerID})
	if err != nil {
		t.Fatal(err)
	}
	syncKey, _, err := svc.MintSyncKey(ctx, owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	clock := &phoneClock{now: start}
	p, err := newDemoPhone(sim, series, srv.URL, syncKey, clock.Now, log)
	if err != nil || p == nil {
		t.Fatalf("no phone: %v", err)
	}
	if len(p.ids) != 3 { // MangaPill Series 4, 7 and 10 of 12
		t.Fatalf("the phone holds %v", p.ids)
	}
	progress := func(id string) string {
		t.Helper()
		ref, err := reg.Canonicalize(sim.SeriesURL(sitesim.MangaPill, id))
		if err != nil {
			t.Fatal(err)
		}
		it, err := st.LibraryEntry(ctx, owner.ID, ref.Site, ref.SeriesID)
		if err != nil {
			t.Fatal(err)
		}
		return it.ProgressNumber
	}
	tick := func(read bool) {
		t.Helper()
		clock.add(2 * time.Minute)
		out, err := p.tick(ctx, read)
		if err != nil || !out.Pushed {
			t.Fatalf("sync: %+v %v", out, err)
		}
	}

	tick(false) // the first sync: nothing stored yet, the library goes up
	if got := progress(p.ids[0]); got != "1" {
		t.Fatalf("Progress before the phone reads: %q", got)
	}
	tick(true) // reads chapter 2 of the first manga
	if got := progress(p.ids[0]); got != "2" {
		t.Errorf("after the phone read chapter 2: Progress %q, want 2", got)
	}
	if p.reads != 1 {
		t.Errorf("reads %d", p.reads)
	}

	// A read on the web (the library's Mark read, the userscript): the
	// phone shows it read at its next sync.
	ref, err := reg.Canonicalize(sim.SeriesURL(sitesim.MangaPill, p.ids[1]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ApplyReads(ctx, []store.Read{{ReaderID: owner.ID, Site: ref.Site, SeriesID: ref.SeriesID, SeriesURL: ref.URL,
		Number: "4", URL: sim.ReaderURL(sitesim.MangaPill, p.ids[1], "4"), ReadAt: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	if got := p.readTo(p.ids[1]); got != 1 {
		t.Fatalf("the phone shows %v read before its sync", got)
	}
	tick(false)
	if got := p.readTo(p.ids[1]); got != 4 {
		t.Errorf("after the web read of chapter 4 and a sync the phone shows %v read", got)
	}
	if got, want := p.readTo(p.ids[0]), float32(2); got != want || p.readTo(p.ids[2]) != 1 {
		t.Errorf("the phone's other manga: %v and %v read", got, p.readTo(p.ids[2]))
	}
	tick(true) // the next read is of the second manga: chapter 5
	if got := progress(p.ids[1]); got != "5" {
		t.Errorf("after the phone read on from the web's read: Progress %q, want 5", got)
	}
}
