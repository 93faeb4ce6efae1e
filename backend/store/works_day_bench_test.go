package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// The Works simulated day (issue 29's measures): 2,000 Works over three
// Sites, a third of them on two or three Sites, each Work publishing one
// chapter in the day, on its first member at a random time and on each
// other member 0–60 minutes later. The Lanes' reads are the store's own
// scheduling on a fake clock, as a Lane at steady state makes them: each
// simulated minute, every Series DueBatch answers (checked an hour ago)
// is stamped and read, one Site request each, and a read whose page shows
// the day's chapter is recorded (RecordOK, with the page's ids). The
// pages of MangaDex and Comix carry their Work's AniList id, as the real
// pages' links do; a three-Site Work's MangaPill member has it from the
// crosswalk (a shared id: a Reader's imported id would link in that
// Reader's library only). The reference run is the same day
// with no ids at all: every bookmark stands alone, as a single-Site
// bookmark does today. The cold run starts with only the MangaPill ids
// stored: the MangaDex and Comix Series are linked by their first read in
// the day, which carries the page's ids, so a chapter a member shows
// before its Work is linked meets the Work's epochs (migration 0015).

// Sites of the day, in member order.
var daySites = []string{"mangadex", "comix", "mangapill"}

const (
	dayWorks   = 2000
	dayReaders = 300
	dayBase    = 100 // every member's Latest at the start; the day's chapter is 101
	dayRest    = time.Hour
	dayTick    = time.Minute
)

// dayWork is one Work's members and when each shows the day's chapter.
type dayWork struct {
	sites []string
	at    map[string]time.Time
	first time.Time
}

// dayPlan is the day's Works, drawn once (seed 29) and shared by every
// run.
type dayPlan struct {
	t0    time.Time
	span  time.Duration
	works []dayWork
}

// worksDaySpan is the simulated span: a day, or MB_WORKS_DAY_SPAN (a Go
// duration of at least 4h) for a quicker look.
func worksDaySpan(b *testing.B) time.Duration {
	if v := os.Getenv("MB_WORKS_DAY_SPAN"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 4*time.Hour {
			b.Fatalf("MB_WORKS_DAY_SPAN=%q: want a Go duration of at least 4h", v)
		}
		return d
	}
	return 24 * time.Hour
}

// newDayPlan draws the Works: Work w is on two or three Sites when w%3 is
// 0 (half of those on all three), else on one Site. Each chapter lands
// early enough (three hours before the end) to be read within the span.
func newDayPlan(t0 time.Time, span time.Duration) dayPlan {
	rng := rand.New(rand.NewPCG(29, 1))
	p := dayPlan{t0: t0, span: span}
	for w := 0; w < dayWorks; w++ {
		var sites []string
		switch {
		case w%3 == 0 && (w/3)%2 == 0:
			sites = daySites[:2]
		case w%3 == 0:
			sites = daySites
		default:
			sites = []string{daySites[(w/3)%3]}
		}
		first := t0.Add(time.Duration(rng.Int64N(int64(span - 3*time.Hour))))
		at := map[string]time.Time{}
		lead := rng.IntN(len(sites))
		for i, s := range sites {
			if i == lead {
				at[s] = first
			} else {
				at[s] = first.Add(time.Duration(rng.Int64N(int64(time.Hour))))
			}
		}
		p.works = append(p.works, dayWork{sites: sites, at: at, first: first})
	}
	return p
}

// dayMode says which ids a run of the day knows.
type dayMode int

const (
	// dayWithout knows no ids: every bookmark stands alone.
	dayWithout dayMode = iota
	// daySteady starts with every id stored: every Work linked.
	daySteady
	// dayCold starts with only the crosswalk's MangaPill ids stored; the
	// other members link by the ids on their first read in the day.
	dayCold
)

// dayRun is what one run of the day measured.
type dayRun struct {
	requests int             // Site reads made
	notices  int             // owed notices
	keys     int             // distinct (Reader, Work, number) among them; one number per Work, so also distinct (Reader, Work)
	delays   []time.Duration // with Works: per (Reader, Work, number), the notice − the chapter's first appearance; without: per notice, the notice − its own Series' chapter
	multi    []time.Duration // the same, Works on two or more Sites only
}

// runDay seeds a fresh database and drives the day through the store.
func runDay(b *testing.B, p dayPlan, mode dayMode) dayRun {
	b.Helper()
	ctx := context.Background()
	st := dbtest.New(b)
	works := mode != dayWithout
	seedDay(b, st, p, mode)
	var r dayRun
	// A Series' number at a time, its Work's id on its page.
	type member struct{ w int } // Series -> its Work
	bySeries := map[[2]string]member{}
	for w, wk := range p.works {
		for _, s := range wk.sites {
			bySeries[[2]string{s, dayID(w)}] = member{w}
		}
	}
	read := map[[2]string]bool{} // Series whose page showed the day's chapter
	// Series whose page ids are stored: in the cold run the MangaDex and
	// Comix members of a Work on several Sites until their first read.
	known := map[[2]string]bool{}
	for w, wk := range p.works {
		for _, s := range wk.sites {
			if mode != dayCold || s == "mangapill" || len(wk.sites) < 2 {
				known[[2]string{s, dayID(w)}] = true
			}
		}
	}
	end := p.t0.Add(p.span)
	for now := p.t0; now.Before(end); now = now.Add(dayTick) {
		for _, site := range daySites {
			due, err := st.DueBatch(ctx, site, dayRest, now, 100000)
			if err != nil {
				b.Fatal(err)
			}
			if len(due) == 0 {
				continue
			}
			ids := make([]string, len(due))
			for j, d := range due {
				ids[j] = d.SeriesID
			}
			// The pass stamps each Series before its read (StampChecked);
			// one statement stamps them all here.
			if _, err := st.Pool().Exec(ctx, `UPDATE series SET latest_checked_at = $3
				WHERE site = $1 AND series_id = ANY($2)`, site, ids, now); err != nil {
				b.Fatal(err)
			}
			r.requests += len(due)
			for _, id := range ids {
				k := [2]string{site, id}
				w := bySeries[k].w
				shows := !now.Before(p.works[w].at[site])
				if (!shows || read[k]) && known[k] {
					// The page shows the number and the ids already
					// stored: RecordOK would change nothing (no row
					// version, no event), so the harness leaves it out;
					// the request is counted.
					continue
				}
				known[k] = true
				number := dayBase
				if shows {
					read[k] = true
					number = dayBase + 1
				}
				f := store.ReadFacts{Title: "Work " + id, Number: strconv.Itoa(number)}
				if works && site != "mangapill" && len(p.works[w].sites) > 1 {
					f.IDs = []store.ExternalID{{Kind: "al", Value: strconv.Itoa(100000 + w)}}
				}
				if _, err := st.RecordOK(ctx, site, id, f, now); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	rows, err := st.Pool().Query(ctx, `SELECT reader_id, site, series_id, seen_at FROM reader_notices ORDER BY seen_at`)
	if err != nil {
		b.Fatal(err)
	}
	type key struct {
		reader int64
		w      int
	}
	seen := map[key]bool{}
	for rows.Next() {
		var reader int64
		var site, sid string
		var at time.Time
		if err := rows.Scan(&reader, &site, &sid, &at); err != nil {
			b.Fatal(err)
		}
		r.notices++
		w := bySeries[[2]string{site, sid}].w
		k := key{reader, w}
		if seen[k] && works {
			continue // a second notice of the Work's number: counted, not timed
		}
		seen[k] = true
		wk := p.works[w]
		from := wk.at[site] // a lone bookmark is told from its own Site
		if works {
			from = wk.first // a Work is told from its first member
		}
		r.delays = append(r.delays, at.Sub(from))
		if len(wk.sites) > 1 {
			r.multi = append(r.multi, at.Sub(from))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	r.keys = len(seen)
	return r
}

// dayID is Work w's Series id on every Site it is on.
func dayID(w int) string { return "w" + strconv.Itoa(w) }

// seedDay stores the Series (checked within the last hour, evenly spread
// per Site: the steady state), the Readers and their bookmarks: each Work
// is bookmarked by three Readers, the first on every member, the second
// on its first member only, the third on its last only. With works, the
// ids are stored already, as the reads before the day stored them (a
// three-Site Work's MangaPill member has its id from the crosswalk): the
// day starts at steady state, every Work linked. Cold, only the MangaPill
// ids are stored (the crosswalk's), so no Work is linked yet.
func seedDay(b *testing.B, st *store.Store, p dayPlan, mode dayMode) {
	b.Helper()
	ctx := context.Background()
	var site, sid []string
	var checked []time.Time
	perSite := map[string]int{}
	for w, wk := range p.works {
		for _, s := range wk.sites {
			site, sid = append(site, s), append(sid, dayID(w))
			perSite[s]++
		}
	}
	nth := map[string]int{}
	for _, s := range site {
		nth[s]++
		checked = append(checked, p.t0.Add(-dayRest+time.Duration(nth[s])*dayRest/time.Duration(perSite[s]+1)))
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url, title, created_at, latest_checked_at,
			latest_number, max_number, latest_seen_at)
		SELECT s, id, 'https://' || s || '.example/' || id, 'Work ' || id, $4::timestamptz - interval '2 days', c, $5, $5, $4::timestamptz - interval '1 day'
		FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(s, id, c)`, site, sid, checked, p.t0, dayBase); err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO readers (discord_id) SELECT 'r' || g FROM generate_series(1, $1) g`, dayReaders); err != nil {
		b.Fatal(err)
	}
	var readers []int64
	rows, err := st.Pool().Query(ctx, `SELECT id FROM readers ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		readers = append(readers, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	var br []int64
	var bs, bid []string
	var imports []store.SeriesIDs
	for w, wk := range p.works {
		for j := 0; j < 3; j++ {
			r := readers[(w*3+j)%len(readers)]
			members := wk.sites
			switch j {
			case 1:
				members = wk.sites[:1]
			case 2:
				members = wk.sites[len(wk.sites)-1:]
			}
			for _, s := range members {
				br, bs, bid = append(br, r), append(bs, s), append(bid, dayID(w))
			}
		}
		if mode != dayWithout && len(wk.sites) > 1 {
			for _, s := range wk.sites {
				// Shared ids only (a Reader's word links in that Reader's
				// library alone): mangapill's page names no ids, so its id is
				// the crosswalk's answer for the id the other Sites gave.
				src := store.IDFromSite
				if s == "mangapill" {
					src = store.IDFromCrosswalk
				} else if mode == dayCold {
					continue
				}
				imports = append(imports, store.SeriesIDs{Site: s, SeriesID: dayID(w),
					IDs: []store.ExternalID{{Kind: "al", Value: strconv.Itoa(100000 + w), Source: src}}})
			}
		}
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO bookmarks (reader_id, site, series_id, created_at)
		SELECT r, s, id, $4::timestamptz - interval '1 day' FROM unnest($1::bigint[], $2::text[], $3::text[]) AS x(r, s, id)
		ON CONFLICT DO NOTHING`, br, bs, bid, p.t0); err != nil {
		b.Fatal(err)
	}
	if len(imports) > 0 {
		if _, err := st.AddSeriesIDs(ctx, imports); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := st.Pool().Exec(ctx, `ANALYZE series, bookmarks, readers`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWorksDay runs the simulated day with Works (ids on the pages)
// at steady state, with Works from a cold start (cold: the MangaDex and
// Comix ids learned from the pages in the day) and without (the
// reference: no ids, every bookmark alone), at once, each on its own
// database. It reports:
//   - notices_per_key: owed notices per (Reader, Work, number) with Works
//     (target 1.00; no Reader reads in the day, so a Digest sends each),
//     and without_notices_per_key, the same count without Works;
//   - median_min: first member's chapter to the notice with Works, and
//     single_median_min: a bookmark's own Site's chapter to its notice
//     without Works (target ratio ≤ 1.05); multi_median_min: with Works,
//     Works on two or more Sites only;
//   - requests and without_requests: Site reads in the day (target ≤ +1%);
//     linking makes none, so they differ only if Works changed scheduling;
//   - told, cold_told and without_told: the (Reader, Work) pairs told the
//     day's chapter over those owed it (every Work's three Readers,
//     6,000), steady, cold and without Works (target 1.000: a link made
//     after a member showed the chapter loses no Reader);
//     cold_notices_per_key: notices per (Reader, Work, number) in the
//     cold run (target 1.00).
func BenchmarkWorksDay(b *testing.B) {
	span := worksDaySpan(b)
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	p := newDayPlan(t0, span)
	var with, cold, without dayRun
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		wg.Add(3)
		go func() { defer wg.Done(); with = runDay(b, p, daySteady) }()
		go func() { defer wg.Done(); cold = runDay(b, p, dayCold) }()
		go func() { defer wg.Done(); without = runDay(b, p, dayWithout) }()
		wg.Wait()
	}
	if with.keys == 0 || cold.keys == 0 || without.keys == 0 {
		b.Fatal("no notices")
	}
	owed := float64(3 * len(p.works))
	b.ReportMetric(float64(with.notices)/float64(with.keys), "notices_per_key")
	b.ReportMetric(float64(without.notices)/float64(without.keys), "without_notices_per_key")
	b.ReportMetric(float64(cold.notices)/float64(cold.keys), "cold_notices_per_key")
	b.ReportMetric(float64(with.keys)/owed, "told")
	b.ReportMetric(float64(cold.keys)/owed, "cold_told")
	b.ReportMetric(float64(without.keys)/owed, "without_told")
	b.ReportMetric(medianMin(with.delays), "median_min")
	b.ReportMetric(medianMin(with.multi), "multi_median_min")
	b.ReportMetric(medianMin(without.delays), "single_median_min")
	b.ReportMetric(float64(with.requests), "requests")
	b.ReportMetric(float64(without.requests), "without_requests")
	b.ReportMetric(float64(with.keys), "keys")
	if testing.Verbose() {
		fmt.Printf("works day: %d notices over %d keys (cold: %d over %d; without: %d over %d)\n",
			with.notices, with.keys, cold.notices, cold.keys, without.notices, without.keys)
	}
}

func medianMin(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Minutes()
}
