package store

// This file holds the one number per Work (docs/adr/0021-works-link-by-ids.md):
// the Work's Latest is its highest member Latest plus that member's offset,
// and a Reader's Progress on it the highest of their Progress on any member
// (in Work numbers). Progress rows stay per Series; the Work's numbers are
// computed where they are read, so a read on one member ends "new" on every
// member the Reader bookmarks.

// readerWorks is the WITH clause that computes, once per query, the Works
// of Reader $1's bookmarks matching where (a condition on bookmarks b;
// "true" for all of them), as workJoin joins them back:
//
//   - rw: each such bookmark in a Work, with the Work as the Reader sees it
//     (their hand link first, else the Series' shared membership: each is
//     at most one row, by its primary key);
//   - rwn: per Work in rw, its Latest and the Reader's Progress on it, in
//     Work numbers (forward only: the highest of any member), over the
//     Reader's members of it: the shared members they did not hand-link
//     elsewhere (with their offsets), and their own hand links to it
//     (offset 0).
//
// Set-based rather than one correlated subquery per bookmark: each Work's
// numbers are aggregated once, and the plan's cost stays far below
// PostgreSQL's jit_above_cost (the per-bookmark LATERAL crossed it at 2000
// bookmarks, and compiling the plan cost more than running it). Each
// member's Series is one primary-key lookup (the LATERAL's LIMIT keeps it
// one): joined plainly, the planner, blind to how few members the union
// yields, hashed the whole series table (120 ms at 200,000 Series).
func readerWorks(where string) string {
	return `WITH rw AS (
		SELECT b.site, b.series_id, coalesce(h.work_id, m.work_id) AS work_id
		FROM bookmarks b
		LEFT JOIN work_hand_links h ON h.reader_id = b.reader_id AND h.site = b.site AND h.series_id = b.series_id
		LEFT JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
		WHERE b.reader_id = $1 AND (` + where + `) AND (h.work_id IS NOT NULL OR m.work_id IS NOT NULL)
	), rwn AS (
		SELECT x.work_id, max(s2.latest_number + x.off) AS latest, max(p2.number + x.off) AS progress
		FROM (SELECT m2.work_id, m2.site, m2.series_id, m2."offset" AS off FROM work_members m2
			WHERE m2.work_id IN (SELECT work_id FROM rw) AND NOT EXISTS (SELECT 1 FROM work_hand_links h3
				WHERE h3.reader_id = $1 AND h3.site = m2.site AND h3.series_id = m2.series_id
					AND h3.work_id <> m2.work_id)
			UNION ALL
			SELECT h2.work_id, h2.site, h2.series_id, 0 FROM work_hand_links h2
			WHERE h2.reader_id = $1 AND h2.work_id IN (SELECT work_id FROM rw)) x
		CROSS JOIN LATERAL (SELECT s2.latest_number FROM series s2
			WHERE s2.site = x.site AND s2.series_id = x.series_id LIMIT 1) s2
		LEFT JOIN progress p2 ON p2.reader_id = $1 AND p2.site = x.site AND p2.series_id = x.series_id
		GROUP BY x.work_id
	)`
}

// workJoin joins a bookmark row b of a query opened by readerWorks with
// its Work as its Reader sees it: wm.work_id is the Series' Work (NULL
// when in none) and wn the Work's Latest and the Reader's Progress on it.
const workJoin = `
	LEFT JOIN rw wm ON wm.site = b.site AND wm.series_id = b.series_id
	LEFT JOIN rwn wn ON wn.work_id = wm.work_id`

// isNewSQL is the New Chapter signal of a bookmark row under workJoin: a
// Series in no Work is New when its Latest is above the Reader's Progress
// on it; a member, when the Work's Latest is above the Reader's Progress
// on the Work. Either way a Reader with no Progress is not New.
const isNewSQL = `CASE WHEN wm.work_id IS NULL THEN coalesce(s.latest_number > p.number, false)
		ELSE coalesce(wn.latest > wn.progress, false) END`

// noticeCaughtSQL says, for an owed notice n, whether its Reader's
// Progress has reached its number: on the Series for a notice of a Series
// in no Work (p), on the Work for a Work's notice (wp, noticeWorkProgress).
const noticeCaughtSQL = `CASE WHEN n.work_id IS NULL THEN coalesce(p.number >= n.number, false)
		ELSE coalesce(wp.number >= n.work_number, false) END`

// noticeWorkProgress joins an owed notice n with its Reader's Progress on
// its Work, in Work numbers.
const noticeWorkProgress = `
	LEFT JOIN LATERAL (SELECT max(p2.number + m2."offset") AS number FROM work_members m2
		JOIN progress p2 ON p2.reader_id = n.reader_id AND p2.site = m2.site AND p2.series_id = m2.series_id
		WHERE m2.work_id = n.work_id) wp ON n.work_id IS NOT NULL`
