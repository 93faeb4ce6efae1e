package store

// Whose word a tracker acts on (docs/adr/0027, addendum "The Reader's own
// evidence"): a pull or a push for Reader R goes only through the ids that
// count for R, a Site's or the crosswalk's (reader_id NULL, migration
// 0016) or R's own (reader_id = R: named, imported, synced), never
// through an id another Reader named. A bookmark whose counting ids name
// two media of the tracker's kind is skipped by both (it is listed to the
// Reader instead), and a push writes a media only when R's pull saw it on
// their list (a tracker_remote row: pulls remember the linked media they
// see, and pushes go only to such media) or R's own id names it.

// trackerLinksSQL is the bookmarks of the Readers that readers (a
// condition on b.reader_id) selects, each with the tracker media ($2, the
// id kind) that ids counting for its Reader link it to: the bookmarked
// Series carries the id, or another member of its Work does, as its
// Reader sees the Work (seriesWorkJoinsOf, readerMembersSQL: their own
// hand links count, members they unlinked do not). One row per
// (bookmark, media id); a bookmark with two rows is ambiguous.
func trackerLinksSQL(readers string) string {
	return `
	SELECT b.reader_id, b.site, b.series_id, i.value AS media_id
	FROM bookmarks b JOIN series_ids i ON i.site = b.site AND i.series_id = b.series_id AND i.kind = $2
		AND (i.reader_id IS NULL OR i.reader_id = b.reader_id)
	WHERE ` + readers + `
	UNION
	SELECT b.reader_id, b.site, b.series_id, i.value
	FROM bookmarks b` + seriesWorkJoinsOf("b.reader_id", "b.site", "b.series_id") + `
	CROSS JOIN LATERAL (` + readerMembersSQL("b.reader_id", "= "+seriesWorkSQL) + `) o
	JOIN series_ids i ON i.site = o.site AND i.series_id = o.series_id AND i.kind = $2
		AND (i.reader_id IS NULL OR i.reader_id = b.reader_id)
	WHERE ` + seriesWorkSQL + ` IS NOT NULL AND (` + readers + `)`
}

// trackerSoleSQL is trackerLinksSQL's bookmarks linked to exactly one
// media, with it.
func trackerSoleSQL(readers string) string {
	return `
	SELECT reader_id, site, series_id, min(media_id) AS media_id FROM (` + trackerLinksSQL(readers) + `) l
	GROUP BY reader_id, site, series_id HAVING count(DISTINCT media_id) = 1`
}

// trackerMayWriteSQL holds when the push of media w.media_id for Reader
// w.reader_id may write (the tracker_remote row r is LEFT JOINed): the
// Reader's pull saw it on their list, or the Reader's own id names it.
const trackerMayWriteSQL = `(r.reader_id IS NOT NULL OR EXISTS (SELECT 1 FROM series_ids o
	WHERE o.kind = $2 AND o.value = w.media_id AND o.reader_id = w.reader_id))`
