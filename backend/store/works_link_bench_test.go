package store_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// BenchmarkLinkByIDs links 100,000 Series by their external ids: 50,000
// MangaDex Series and 50,000 Comix Series, pair i sharing AniList id i, as
// an import or the Lanes' reads hand them over (chunks of 1,000 Series).
// Linking is SQL on stored rows only: no Site is asked anything (the
// store imports no Site code, internal/archtest), and site_requests counts
// the HTTP requests the process makes meanwhile through the default
// transport, to show it. It reports the time per 100k Series (ns/op and
// s/100k_series) and the Works made.
func BenchmarkLinkByIDs(b *testing.B) {
	const pairs = 50000
	const chunk = 1000
	ctx := context.Background()
	reqs := countRequests(b)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st := dbtest.New(b)
		if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url)
			SELECT site, g::text, 'https://x/' || g FROM generate_series(1, $1) g, unnest('{mangadex,comix}'::text[]) site`, pairs); err != nil {
			b.Fatal(err)
		}
		var items []store.SeriesIDs
		for p := 1; p <= pairs; p++ {
			for _, site := range []string{"mangadex", "comix"} {
				items = append(items, store.SeriesIDs{Site: site, SeriesID: strconv.Itoa(p),
					IDs: []store.ExternalID{{Kind: "al", Value: strconv.Itoa(p), Source: store.IDFromImport}}})
			}
		}
		b.StartTimer()
		start := time.Now()
		for k := 0; k < len(items); k += chunk {
			if _, err := st.AddSeriesIDs(ctx, items[k:min(k+chunk, len(items))]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		total += time.Since(start)
		var works int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM works`).Scan(&works); err != nil || works != pairs {
			b.Fatalf("%d Works (%v), want %d", works, err, pairs)
		}
		b.ReportMetric(float64(works), "works")
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/100k_series")
	b.ReportMetric(float64(reqs.Load())/float64(b.N), "site_requests")
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
