package store

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"
)

// Linking the shared (kind, value) pairs new to series_ids, set-based:
// only shared ids (a Site's, the crosswalk's: reader_id NULL) link here;
// a Reader's word links in that Reader's library (works_link_reader.go).
// A batch of ids (a chunk of reads) mostly brings Series no Work holds
// yet: every group of them joined by shared ids becomes one new Work,
// which is what link_by_id (testdata/schema.sql; migration 0016 last
// made it) would make of them one pair at a time, in a few statements for
// the whole batch instead of several per pair. A group that reaches a
// Series with a Work's history (a member, a former member, an unlinked
// one, a hand link) may merge or rebuild Works and meets work_unlinks,
// hand links and told notices, and a group holding two Series of one
// Site meets the bound (a Work holds one member per Site, the rest are
// refused): the pairs of both go through link_by_id in order, so those
// rules live in one place.

// carriersSQL lists, for each new pair ($1, $2 by ordinal), the Series
// carrying it as a shared id and whether each has a Work's history: a member of a Work
// already, a former member of a dissolved Work (ids rebuild that Work),
// a member unlinked from one (never linked back) or held by a Reader's
// hand link (has_work_history, testdata/schema.sql). Such a Series' group goes
// through link_by_id, which keeps those rules.
const carriersSQL = `
	SELECT f.ord, i.site, i.series_id, m.work_id IS NOT NULL OR has_work_history(i.site, i.series_id)
	FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS f(kind, value, ord)
	JOIN series_ids i ON i.kind = f.kind AND i.value = f.value AND i.reader_id IS NULL
	LEFT JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
	GROUP BY f.ord, i.site, i.series_id, m.work_id
	ORDER BY f.ord, i.site, i.series_id`

// newWorksSQL makes $1 Works.
const newWorksSQL = `INSERT INTO works SELECT FROM generate_series(1, $1) RETURNING id`

// newMembersSQL joins Series to the new Works.
const newMembersSQL = `
	INSERT INTO work_members (site, series_id, work_id, linked_by)
	SELECT site, series_id, work_id, linked_by
	FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(site, series_id, work_id, linked_by)`

// seriesKey names a Series.
type seriesKey struct{ site, id string }

// linkGroups is the union-find of Series joined by new pairs.
type linkGroups map[seriesKey]seriesKey

func (g linkGroups) root(k seriesKey) seriesKey {
	for {
		p, ok := g[k]
		if !ok || p == k {
			return k
		}
		if gp, ok := g[p]; ok && gp != p {
			g[k] = gp // halve the path
		}
		k = p
	}
}

func (g linkGroups) join(a, b seriesKey) {
	ra, rb := g.root(a), g.root(b)
	if ra != rb {
		g[rb] = ra
	}
}

// linkFresh links the Series carrying each new (kinds[i], values[i]) and
// answers how many pairs joined or merged a Work (link_by_id's non-NULL
// answers). The caller holds the works lock.
func linkFresh(ctx context.Context, tx pgx.Tx, kinds, values []string) (int, error) {
	rows, err := tx.Query(ctx, carriersSQL, kinds, values)
	if err != nil {
		return 0, err
	}
	carriers := make([][]seriesKey, len(kinds))
	member := map[seriesKey]bool{}
	for rows.Next() {
		var ord int
		var k seriesKey
		var isMember bool
		if err := rows.Scan(&ord, &k.site, &k.id, &isMember); err != nil {
			rows.Close()
			return 0, err
		}
		carriers[ord-1] = append(carriers[ord-1], k)
		if isMember {
			member[k] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}

	// Group the Series by the pairs two or more of them carry.
	groups := linkGroups{}
	for _, cs := range carriers {
		if len(cs) < 2 {
			continue
		}
		for _, k := range cs[1:] {
			groups.join(cs[0], k)
		}
	}
	tainted := map[seriesKey]bool{} // groups reaching a Series with a Work's history, or a Site twice
	sites := map[seriesKey]map[string]seriesKey{}
	for _, cs := range carriers {
		if len(cs) < 2 {
			continue
		}
		for _, k := range cs {
			r := groups.root(k)
			if member[k] {
				tainted[r] = true
			}
			if sites[r] == nil {
				sites[r] = map[string]seriesKey{}
			}
			if o, ok := sites[r][k.site]; ok && o != k {
				tainted[r] = true
			}
			sites[r][k.site] = k
		}
	}

	// Pairs of tainted groups go through link_by_id, in order; the others
	// make one new Work per group, each Series linked by the kind of the
	// first pair that reached it (as link_by_id in order would).
	var slow []int
	linked := 0
	workOf := map[seriesKey]int{} // group root -> index of its new Work
	var site, sid, by []string
	var work []int
	placed := map[seriesKey]bool{}
	for i, cs := range carriers {
		if len(cs) < 2 {
			continue
		}
		r := groups.root(cs[0])
		if tainted[r] {
			slow = append(slow, i)
			continue
		}
		linked++
		w, ok := workOf[r]
		if !ok {
			w = len(workOf)
			workOf[r] = w
		}
		for _, k := range cs {
			if placed[k] {
				continue
			}
			placed[k] = true
			site, sid = append(site, k.site), append(sid, k.id)
			work, by = append(work, w), append(by, "id:"+kinds[i])
		}
	}
	if len(workOf) > 0 {
		ids, err := newWorks(ctx, tx, len(workOf))
		if err != nil {
			return linked, err
		}
		wid := make([]int64, len(work))
		for j, w := range work {
			wid[j] = ids[w]
		}
		if _, err := tx.Exec(ctx, newMembersSQL, site, sid, wid, by); err != nil {
			return linked, err
		}
	}
	if len(slow) == 0 {
		return linked, nil
	}
	b := &pgx.Batch{}
	for _, i := range slow {
		b.Queue(`SELECT link_by_id($1, $2)`, kinds[i], values[i])
	}
	br := tx.SendBatch(ctx, b)
	for range slow {
		var w *int64
		if err := br.QueryRow().Scan(&w); err != nil {
			_ = br.Close()
			return linked, err
		}
		if w != nil {
			linked++
		}
	}
	return linked, br.Close()
}

// newWorks makes n Works and answers their ids in ascending order.
func newWorks(ctx context.Context, tx pgx.Tx, n int) ([]int64, error) {
	rows, err := tx.Query(ctx, newWorksSQL, n)
	if err != nil {
		return nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return ids, nil
}
