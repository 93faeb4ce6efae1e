package store_test

import (
	"context"
	"strconv"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// BenchmarkLinkByIDs links 100,000 Series by their external ids: 50,000
// MangaDex Series and 50,000 Comix Series, pair i sharing AniList id i, as
// an import or the Lanes' reads hand them over (chunks of 1,000 Series).
// Linking is SQL on stored rows only: no Site is asked anything. It
// reports the time per 100k Series and the Works made.
func BenchmarkLinkByIDs(b *testing.B) {
	const pairs = 50000
	const chunk = 1000
	ctx := context.Background()
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
		for k := 0; k < len(items); k += chunk {
			if _, err := st.AddSeriesIDs(ctx, items[k:min(k+chunk, len(items))]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		var works int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM works`).Scan(&works); err != nil || works != pairs {
			b.Fatalf("%d Works (%v), want %d", works, err, pairs)
		}
		b.ReportMetric(float64(works), "works")
	}
}
