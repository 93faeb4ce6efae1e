package store_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// BenchmarkLinkByIDs links 100,000 Series by their external ids: 50,000
// MangaDex Series and 50,000 Comix Series, pair i sharing AniList id i, as
// an import or the Lanes' reads hand them over (chunks of 1,000 Series).
// Linking is SQL on stored rows only: no Site is asked anything (the
// store imports no Site code, internal/archtest), and site_requests counts
// the HTTP requests the process makes meanwhile through the default
// transport, to show it. It reports the time per 100k Series
// (s/100k_series; ns/op counts all three runs); and, as a reference in the
// same run, 20,000 Series linked both ways: set-based (set_20k_s) and the
// way the store linked before, link_by_id on each new pair in one
// pipelined batch per chunk (per_pair_20k_s).
func BenchmarkLinkByIDs(b *testing.B) {
	reqs := countRequests(b)
	var total, set20, per20 time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		total += timeLink(b, 50000, linkSet)
		set20 += timeLink(b, 10000, linkSet)
		per20 += timeLink(b, 10000, linkPerPair)
	}
	n := float64(b.N)
	b.ReportMetric(total.Seconds()/n, "s/100k_series")
	b.ReportMetric(float64(reqs.Load())/n, "site_requests")
	b.ReportMetric(set20.Seconds()/n, "set_20k_s")
	b.ReportMetric(per20.Seconds()/n, "per_pair_20k_s")
}

// linkChunk is how many Series' ids one call hands over.
const linkChunk = 1000

// timeLink seeds a fresh database with pairs MangaDex and Comix Series,
// pair i sharing AniList id i, times link over their ids in chunks and
// checks one Work per pair.
func timeLink(b *testing.B, pairs int, link func(context.Context, *store.Store, []store.SeriesIDs) error) time.Duration {
	b.Helper()
	ctx := context.Background()
	st := dbtest.New(b)
	if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url)
		SELECT site, g::text, 'https://x/' || g FROM generate_series(1, $1) g, unnest('{mangadex,comix}'::text[]) site`, pairs); err != nil {
		b.Fatal(err)
	}
	var items []store.SeriesIDs
	for p := 1; p <= pairs; p++ {
		for _, site := range []string{"mangadex", "comix"} {
			items = append(items, store.SeriesIDs{Site: site, SeriesID: strconv.Itoa(p),
				IDs: []store.ExternalID{{Kind: "al", Value: strconv.Itoa(p), Source: store.IDFromSite}}})
		}
	}
	b.StartTimer()
	start := time.Now()
	for k := 0; k < len(items); k += linkChunk {
		if err := link(ctx, st, items[k:min(k+linkChunk, len(items))]); err != nil {
			b.Fatal(err)
		}
	}
	took := time.Since(start)
	b.StopTimer()
	var works int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM works`).Scan(&works); err != nil || works != pairs {
		b.Fatalf("%d Works (%v), want %d", works, err, pairs)
	}
	return took
}

// linkSet is the store's own way (AddSeriesIDs).
func linkSet(ctx context.Context, st *store.Store, items []store.SeriesIDs) error {
	_, err := st.AddSeriesIDs(ctx, items)
	return err
}

// linkPerPair is the reference: the ids stored as the store stores them,
// then link_by_id (testdata/schema.sql) on each new pair, pipelined, in one
// transaction under the works lock, as AddSeriesIDs did before linking
// became set-based.
func linkPerPair(ctx context.Context, st *store.Store, items []store.SeriesIDs) error {
	var site, sid, kind, value, source []string
	var reader []int64
	for _, it := range items {
		for _, id := range it.IDs {
			site, sid = append(site, it.Site), append(sid, it.SeriesID)
			kind, value, source = append(kind, id.Kind), append(value, id.Value), append(source, id.Source)
			reader = append(reader, it.ReaderID)
		}
	}
	return pgx.BeginFunc(ctx, st.Pool(), func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, store.InsertIDsSQLForTest(), site, sid, kind, value, source, reader)
		if err != nil {
			return err
		}
		var fresh [][2]string
		seen := map[[2]string]bool{}
		for rows.Next() {
			var p [2]string
			var s, id string
			var r int64
			if err := rows.Scan(&s, &id, &p[0], &p[1], &r); err != nil {
				rows.Close()
				return err
			}
			if !seen[p] {
				seen[p] = true
				fresh = append(fresh, p)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(21, 1)`); err != nil {
			return err
		}
		batch := &pgx.Batch{}
		for _, p := range fresh {
			batch.Queue(`SELECT link_by_id($1, $2)`, p[0], p[1])
		}
		return tx.SendBatch(ctx, batch).Close()
	})
}

// countingTransport counts the requests made through it.
type countingTransport struct {
	inner http.RoundTripper
	n     *atomic.Int64
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return t.inner.RoundTrip(r)
}

// countRequests counts every request made through http.DefaultTransport
// until b ends.
func countRequests(b *testing.B) *atomic.Int64 {
	n := &atomic.Int64{}
	old := http.DefaultTransport
	http.DefaultTransport = countingTransport{inner: old, n: n}
	b.Cleanup(func() { http.DefaultTransport = old })
	return n
}
