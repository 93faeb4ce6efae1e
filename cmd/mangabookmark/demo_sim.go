package main

import (
	"context"
	"fmt"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
)

// demoUnfollowed is how many Series of each Site the demo's library does
// not bookmark: their chapters fill the listings beside the library's, as
// on a real Site.
const demoUnfollowed = 10

// demoHorizon is how far past the demo's start the simulator draws its
// chapters: a demo left running for a month still sees them arrive.
const demoHorizon = 30 * 24 * time.Hour

// demoSim is the demo's simulator, not yet listening: series bookmarked
// Series per Site and demoUnfollowed more; every Site publishing new
// chapters all along (sitesim.Publish: each Series one every newEvery on
// average, at random, so each Site's listing names them as they appear
// and the Lanes find them through it, or through Rest where a Site has no
// listing); the first three Series of each Site broken (gone, changed
// layout, 5xx) so the worklist fills within the first minute; refusing
// ("" for none) refusing every read. now is the simulator's clock (nil:
// time.Now); the epoch is its time when demoSim runs.
func demoSim(series int, newEvery time.Duration, refusing string, now func() time.Time) (*sitesim.Sim, error) {
	if newEvery <= 0 {
		return nil, fmt.Errorf("demo: --new-every must be positive, got %v", newEvery)
	}
	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: series + demoUnfollowed, Now: now})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	perDay := float64(series+demoUnfollowed) * float64(24*time.Hour) / float64(newEvery)
	for k, name := range sitesim.SiteNames {
		if err := sim.Publish(name, sitesim.Publishing{PerDay: perDay, Seed: uint64(k + 1), Horizon: demoHorizon}); err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		ids := sim.SeriesIDs(name, series)
		faults := []sitesim.Mode{sitesim.Gone, sitesim.LayoutChanged, sitesim.ServerError}
		for i, m := range faults {
			if i < len(ids) {
				sim.SetSeries(name, ids[i], sitesim.Behavior{Mode: m})
			}
		}
	}
	if refusing != "" {
		sim.SetSite(refusing, sitesim.Behavior{Mode: sitesim.Challenge})
	}
	return sim, nil
}

// demoLibrary seeds the demo's library over a started simulator: the
// Owner bookmarks the first series Series of every Site and the Reader
// Aki every other one; each Series gets a baseline of chapter 0, so the
// Lanes' first reads are Chapter Events (the feed and the notices show
// one within a minute). The Owner's Progress: every third Series (k ≡ 1)
// read up to chapter 1, so the library shows New Chapters from the
// Lanes' first reads; every third (k ≡ 2) read up to the chapter the
// simulator shows at now, caught up, so a chapter published later is a
// New Chapter arriving; the rest unread. It returns the Owner and Aki.
func demoLibrary(ctx context.Context, st *store.Store, reg *sites.Registry, sim *sitesim.Sim, series int, ownerID string, now time.Time) (owner, reader store.Reader, err error) {
	owner, err = st.UpsertReader(ctx, ownerID, "Owner", nil)
	if err != nil {
		return owner, reader, err
	}
	reader, err = st.UpsertReader(ctx, "100000000000000002", "Aki", nil)
	if err != nil {
		return owner, reader, err
	}
	var reads []store.Read
	for _, name := range sitesim.SiteNames {
		for i, id := range sim.SeriesIDs(name, series) {
			ref, err := reg.Canonicalize(sim.SeriesURL(name, id))
			if err != nil {
				return owner, reader, fmt.Errorf("demo: seed %s: %w", name, err)
			}
			if _, err := st.AddBookmark(ctx, owner.ID, ref.Site, ref.SeriesID, ref.URL); err != nil {
				return owner, reader, err
			}
			if i%2 == 0 {
				if _, err := st.AddBookmark(ctx, reader.ID, ref.Site, ref.SeriesID, ref.URL); err != nil {
					return owner, reader, err
				}
			}
			if err := st.SetBaseline(ctx, ref.Site, ref.SeriesID, "0"); err != nil {
				return owner, reader, err
			}
			number := ""
			switch i % 3 {
			case 1:
				number = "1"
			case 2:
				number = sim.Latest(name, id)
			}
			if number != "" {
				reads = append(reads, store.Read{ReaderID: owner.ID, Site: ref.Site, SeriesID: ref.SeriesID, SeriesURL: ref.URL,
					Number: number, URL: ref.URL, ReadAt: now})
			}
		}
	}
	if _, err := st.ApplyReads(ctx, reads); err != nil {
		return owner, reader, err
	}
	return owner, reader, nil
}
