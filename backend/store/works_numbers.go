package store

// This file holds the one number per Work (docs/adr/0021-works-link-by-ids.md):
// the Work's Latest is its highest member Latest plus that member's offset,
// and a Reader's Progress on it the highest of their Progress on any member
// (in Work numbers). Progress rows stay per Series; the Work's numbers are
// computed where they are read, so a read on one member ends "new" on every
// member the Reader bookmarks.

// workJoin joins a bookmark row b with its Work: wm is the Series'
// membership (NULL when it is in none) and wn the Work's Latest and the
// bookmark's Reader's Progress on it, in Work numbers.
const workJoin = `
	LEFT JOIN work_members wm ON wm.site = b.site AND wm.series_id = b.series_id
	LEFT JOIN LATERAL (
		SELECT max(s2.latest_number + m2."offset") AS latest, max(p2.number + m2."offset") AS progress
		FROM work_members m2
		JOIN series s2 ON s2.site = m2.site AND s2.series_id = m2.series_id
		LEFT JOIN progress p2 ON p2.reader_id = b.reader_id AND p2.site = m2.site AND p2.series_id = m2.series_id
		WHERE m2.work_id = wm.work_id) wn ON wm.work_id IS NOT NULL`

// isNewSQL is the New Chapter signal of a bookmark row under workJoin: a
// Series in no Work is New when its Latest is above the Reader's Progress
// on it; a member, when the Work's Latest is above the Reader's Progress
// on the Work. Either way a Reader with no Progress is not New.
const isNewSQL = `CASE WHEN wm.work_id IS NULL THEN coalesce(s.latest_number > p.number, false)
		ELSE coalesce(wn.latest > wn.progress, false) END`
