package sitesim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"
)

// Publishing makes a Site publish new chapters over simulated time: each
// Series gets a Poisson process (exponential gaps between its chapters)
// whose rates add up to PerDay chapters a day across the Site's Series.
type Publishing struct {
	PerDay  float64       // chapters a day over the whole Site; must be positive
	Seed    uint64        // the same seed draws the same chapters
	Horizon time.Duration // how far past the epoch chapters are drawn; zero means 48 h
}

// Release is one published chapter: which Series, its whole number and
// when it appeared (simulated time).
type Release struct {
	SeriesID string
	Number   int
	At       time.Time
}

// pubState holds every Site's drawn chapters. releases are ordered by
// time, then Series index, then number; per holds each Series' times.
type pubState struct {
	once     sync.Once
	mu       sync.RWMutex
	releases map[string][]release
	per      map[string]map[int][]time.Time
	listing  map[string]Behavior // SetListing (listing.go)
	hits     map[string]int64    // listing pages answered
}

type release struct {
	i  int
	k  int // ordinal among the Series' published chapters, from 1
	at time.Time
}

// pub returns the simulator's drawn chapters, making the maps on first use.
func (s *Sim) pub() *pubState {
	ps := &s.pubs
	ps.once.Do(func() {
		ps.releases, ps.per = map[string][]release{}, map[string]map[int][]time.Time{}
	})
	return ps
}

// Publish draws the Site's chapters from the simulator's epoch to the
// horizon, replacing any drawn before. Steady Series only show them; a
// scripted NewEvery still adds its own.
func (s *Sim) Publish(site string, p Publishing) error {
	if p.PerDay <= 0 {
		return fmt.Errorf("sitesim: Publishing.PerDay is %v: want a positive rate", p.PerDay)
	}
	if p.Horizon == 0 {
		p.Horizon = 48 * time.Hour
	}
	n := s.cfg.SeriesPerSite
	mean := float64(24*time.Hour) * float64(n) / p.PerDay // per Series
	rng := rand.New(rand.NewPCG(p.Seed, hash64("publish", site)))
	per := map[int][]time.Time{}
	var all []release
	for i := 0; i < n; i++ {
		at := s.cfg.Epoch
		for {
			at = at.Add(time.Duration(rng.ExpFloat64() * mean))
			if at.Sub(s.cfg.Epoch) > p.Horizon {
				break
			}
			per[i] = append(per[i], at)
			all = append(all, release{i: i, k: len(per[i]), at: at})
		}
	}
	sortReleases(all)
	ps := s.pub()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.releases[site], ps.per[site] = all, per
	return nil
}

// BulkUpload publishes count chapters of Series i at once, at the given
// simulated time: a group's bulk upload, which floods the listing.
func (s *Sim) BulkUpload(site string, i, count int, at time.Time) {
	ps := s.pub()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.per[site] == nil {
		ps.per[site] = map[int][]time.Time{}
	}
	times := ps.per[site][i]
	for c := 0; c < count; c++ {
		times = append(times, at)
	}
	sort.Slice(times, func(a, b int) bool { return times[a].Before(times[b]) })
	ps.per[site][i] = times
	var all []release
	for _, r := range ps.releases[site] {
		if r.i != i {
			all = append(all, r)
		}
	}
	for k, t := range times {
		all = append(all, release{i: i, k: k + 1, at: t})
	}
	sortReleases(all)
	ps.releases[site] = all
}

func sortReleases(all []release) {
	sort.Slice(all, func(a, b int) bool {
		if !all[a].at.Equal(all[b].at) {
			return all[a].at.Before(all[b].at)
		}
		if all[a].i != all[b].i {
			return all[a].i < all[b].i
		}
		return all[a].k < all[b].k
	})
}

// published is how many chapters Series i has published by now, and their
// times in order.
func (s *Sim) published(site string, i int, now time.Time) []time.Time {
	ps := s.pub()
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	times := ps.per[site][i]
	n := sort.Search(len(times), func(j int) bool { return times[j].After(now) })
	return times[:n]
}

// Releases lists the Site's published chapters up to now, oldest first,
// with the number each shows: what a benchmark measures detection against.
func (s *Sim) Releases(site string, upTo time.Time) []Release {
	ps := s.pub()
	ps.mu.RLock()
	all := ps.releases[site]
	ps.mu.RUnlock()
	var out []Release
	for _, r := range all {
		if r.at.After(upTo) {
			break
		}
		base := s.series(site, r.i, Behavior{}).base
		out = append(out, Release{SeriesID: seriesID(site, r.i), Number: base + r.k, At: r.at})
	}
	return out
}

// recent returns the Site's releases up to now, newest first, skipping
// skip and taking at most n: one listing page.
func (s *Sim) recent(site string, now time.Time, skip, n int) []release {
	ps := s.pub()
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	all := ps.releases[site]
	end := sort.Search(len(all), func(j int) bool { return all[j].at.After(now) })
	var out []release
	for j := end - 1 - skip; j >= 0 && len(out) < n; j-- {
		out = append(out, all[j])
	}
	return out
}

// releasedBefore counts the Site's releases up to now.
func (s *Sim) releasedBefore(site string, now time.Time) int {
	ps := s.pub()
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	all := ps.releases[site]
	return sort.Search(len(all), func(j int) bool { return all[j].at.After(now) })
}
