package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// The set-based link makes what link_by_id (migration 0016) makes one
// pair at a time: random batches of Sites' ids over 40 Series on two
// Sites, some joining Works made by earlier batches, some meeting a
// Reader's unlink and many meeting the bound (one member per Site), give
// the same Works (the same groups of Series, each linked by the same
// kind) through AddSeriesIDs as through link_by_id called per new pair
// in the order the batch stored them.
func TestSetLinkMatchesLinkByID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			t.Parallel()
			set, ref := dbtest.New(t), dbtest.New(t)
			for _, st := range []*store.Store{set, ref} {
				if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url)
					SELECT site, g::text, 'https://x/' || g FROM generate_series(1, 20) g, unnest('{mangadex,comix}'::text[]) site`); err != nil {
					t.Fatal(err)
				}
			}
			rng := rand.New(rand.NewPCG(seed, 29))
			kinds := []string{"al", "kt", "mal"} // numbers, stored as given (mu's forms: works_ids_test.go)
			for batch := 0; batch < 5; batch++ {
				var items []store.SeriesIDs
				for j := 0; j < 12; j++ {
					site := []string{"mangadex", "comix"}[rng.IntN(2)]
					items = append(items, store.SeriesIDs{Site: site, SeriesID: strconv.Itoa(1 + rng.IntN(20)),
						IDs: []store.ExternalID{{Kind: kinds[rng.IntN(len(kinds))], Value: strconv.Itoa(1 + rng.IntN(25)), Source: store.IDFromSite}}})
				}
				if _, err := set.AddSeriesIDs(ctx, items); err != nil {
					t.Fatal(err)
				}
				refAdd(t, ref, items)
				if batch == 2 { // a Reader unlinks one member in both worlds
					unlinkFirst(t, set)
					unlinkFirst(t, ref)
				}
			}
			if got, want := worksShape(t, set), worksShape(t, ref); got != want {
				t.Fatalf("set-based Works\n%s\nlink_by_id's\n%s", got, want)
			}
		})
	}
}

// refAdd stores the items' ids as the store does and runs link_by_id on each pair new to
// the table, one statement each, in the order the insert answered them.
func refAdd(t *testing.T, st *store.Store, items []store.SeriesIDs) {
	t.Helper()
	ctx := context.Background()
	var site, sid, kind, value, source []string
	var reader []int64
	seen := map[[3]string]bool{} // the store keeps the first id of a kind per Series in a call
	for _, it := range items {
		for _, id := range it.IDs {
			if k := [3]string{it.Site, it.SeriesID, id.Kind}; !seen[k] {
				seen[k] = true
				site, sid = append(site, it.Site), append(sid, it.SeriesID)
				kind, value, source = append(kind, id.Kind), append(value, id.Value), append(source, id.Source)
				reader = append(reader, 0)
			}
		}
	}
	rows, err := st.Pool().Query(ctx, store.InsertIDsSQLForTest(), site, sid, kind, value, source, reader)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]string
	for rows.Next() {
		var p [2]string
		var s, id, src string
		var r int64
		if err := rows.Scan(&s, &id, &p[0], &p[1], &src, &r); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if _, err := st.Pool().Exec(ctx, `SELECT link_by_id($1, $2)`, p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// unlinkFirst unlinks the first member of the first Work for everyone, if
// any.
func unlinkFirst(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	var w int64
	var site, sid string
	err := st.Pool().QueryRow(ctx, `SELECT work_id, site, series_id FROM work_members
		ORDER BY work_id, site, series_id LIMIT 1`).Scan(&w, &site, &sid)
	if err != nil {
		return // no Work yet
	}
	if err := st.UnlinkShared(ctx, w, site, sid); err != nil {
		t.Fatal(err)
	}
}

// worksShape writes the Works as sorted groups of members with their
// linked_by, without the Works' ids (which differ between the two ways).
func worksShape(t *testing.T, st *store.Store) string {
	t.Helper()
	rows, err := st.Pool().Query(context.Background(), `SELECT string_agg(site || '/' || series_id || ':' || linked_by, ' ' ORDER BY site, series_id)
		FROM work_members GROUP BY work_id`)
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			t.Fatal(err)
		}
		groups = append(groups, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(groups)
	return fmt.Sprintf("%d Works\n%s", len(groups), strings.Join(groups, "\n"))
}
