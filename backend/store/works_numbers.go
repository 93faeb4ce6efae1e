package store

// This file is the one home of the Works rules as one Reader sees them
// (docs/adr/0021-works-link-by-ids.md, docs/adr/0022-library-page-in-one-statement.md):
// every statement that needs one of them composes the fragment here, so a
// rule is written once. The fragments take the Reader as the named
// argument @reader (namedArgs) unless said otherwise.
//
// The Work's Latest is its highest member Latest plus that member's
// offset, and a Reader's Progress on it the highest of their Progress on
// any member (in Work numbers). Progress rows stay per Series; the Work's
// numbers are computed where they are read, so a read on one member ends
// "new" on every member the Reader bookmarks.

// readerOffSQL is a shared member's offset as Reader reader sees it (SQL
// expressions: the member's Work, Site and id, and its shared offset):
// the Reader's own (work_reader_offsets, one primary-key lookup) while
// the member is in that Work, else the shared one. Offsets are per Reader
// (docs/adr/0021-works-link-by-ids.md, "Offsets per Reader"): every
// statement that computes a Reader's Work numbers takes a member's offset
// from here or memberOffSQL, never from work_members."offset" alone,
// which is the shared offset (drift is judged on it).
func readerOffSQL(reader, work, site, seriesID, shared string) string {
	return `coalesce((SELECT rof."offset" FROM work_reader_offsets rof WHERE rof.reader_id = ` + reader +
		` AND rof.site = ` + site + ` AND rof.series_id = ` + seriesID + ` AND rof.work_id = ` + work + `), ` + shared + `)`
}

// memberOffJoin is readerOffSQL of the work_members row m as a join, for
// statements over many (Reader, member) rows, where a hash join beats a
// lookup per row: it LEFT JOINs the Reader's own offset as alias, and
// memberOffOf reads the member's offset from it.
func memberOffJoin(reader, m, alias string) string {
	return `
		LEFT JOIN work_reader_offsets ` + alias + ` ON ` + alias + `.reader_id = ` + reader + ` AND ` + alias + `.site = ` + m + `.site
			AND ` + alias + `.series_id = ` + m + `.series_id AND ` + alias + `.work_id = ` + m + `.work_id`
}

// memberOffOf is the offset of the row m under memberOffJoin's alias.
func memberOffOf(m, alias string) string {
	return `coalesce(` + alias + `."offset", ` + m + `."offset")`
}

// memberOffSQL is readerOffSQL of the work_members row m (an alias).
func memberOffSQL(reader, m string) string {
	return readerOffSQL(reader, m+".work_id", m+".site", m+".series_id", m+`."offset"`)
}

// readerUnlinkedSQL says whether Reader reader unlinked the member (site,
// seriesID) from Work work (SQL expressions): their own unlink
// (work_reader_unlinks, one primary-key lookup). Unlinks are per Reader
// (docs/adr/0021-works-link-by-ids.md, "Unlinks per Reader"): the member
// stays in the Work for every other Reader.
func readerUnlinkedSQL(reader, work, site, seriesID string) string {
	return `EXISTS (SELECT 1 FROM work_reader_unlinks ru WHERE ru.reader_id = ` + reader +
		` AND ru.work_id = ` + work + ` AND ru.site = ` + site + ` AND ru.series_id = ` + seriesID + `)`
}

// readerWorkThinSQL says whether Work work is left with fewer than two
// members for Reader reader by their own unlinks (its shared members they
// did not unlink, and their hand links to it, counted as dissolve_work
// counts): a Work so thinned is no Work in that Reader's library, as a
// Work dissolved is none in anyone's. A Reader with no unlink in the Work
// costs one index lookup.
func readerWorkThinSQL(reader, work string) string {
	return `(EXISTS (SELECT 1 FROM work_reader_unlinks rt WHERE rt.reader_id = ` + reader + ` AND rt.work_id = ` + work + `)
		AND (SELECT count(*) FROM work_members ro WHERE ro.work_id = ` + work + `
			AND NOT ` + readerUnlinkedSQL(reader, "ro.work_id", "ro.site", "ro.series_id") + `)
		+ (SELECT count(*) FROM work_hand_links rh2 WHERE rh2.reader_id = ` + reader + ` AND rh2.work_id = ` + work + `) < 2)`
}

// readerInWorkSQL says whether the shared member (site, seriesID) of Work
// work (SQL expressions) is in that Work for Reader reader: not unlinked
// by them, and the Work not thinned by their unlinks below two members.
// Every statement that reads a Reader's Work through work_members takes
// the Reader's unlinks from here.
func readerInWorkSQL(reader, work, site, seriesID string) string {
	return `(NOT ` + readerUnlinkedSQL(reader, work, site, seriesID) + ` AND NOT ` + readerWorkThinSQL(reader, work) + `)`
}

// memberInWorkSQL is readerInWorkSQL of the work_members row m (an alias).
func memberInWorkSQL(reader, m string) string {
	return readerInWorkSQL(reader, m+".work_id", m+".site", m+".series_id")
}

// seriesWorkJoins joins a Series (the SQL expressions site and seriesID)
// with the Work it is in for Reader @reader: the Reader's own hand link
// (sh) first, else the Series' shared membership (sm) unless the Reader
// unlinked it (memberInWorkSQL). Each is at most one row, by its primary
// key. seriesWorkSQL reads them.
func seriesWorkJoins(site, seriesID string) string {
	return seriesWorkJoinsOf("@reader", site, seriesID)
}

// seriesWorkJoinsOf is seriesWorkJoins for the Reader reader (an SQL
// expression, such as a bookmark's b.reader_id in a statement over many
// Readers).
func seriesWorkJoinsOf(reader, site, seriesID string) string {
	return `
		LEFT JOIN work_hand_links sh ON sh.reader_id = ` + reader + ` AND sh.site = ` + site + ` AND sh.series_id = ` + seriesID + `
		LEFT JOIN work_members sm ON sm.site = ` + site + ` AND sm.series_id = ` + seriesID + ` AND ` + memberInWorkSQL(reader, "sm")
}

// seriesWorkSQL is the Work a Series is in for the Reader (NULL for
// none) and seriesOffSQL its offset there (a hand link's is 0, a shared
// member's the Reader's, memberOffSQL), under seriesWorkJoins: the same
// Work and offset as the Series' row of readerMembersSQL.
const seriesWorkSQL = `coalesce(sh.work_id, sm.work_id)`

var seriesOffSQL = `CASE WHEN sh.work_id IS NULL THEN ` + memberOffSQL("@reader", "sm") + ` ELSE 0 END`

// seriesWorkOf is seriesWorkSQL of one Series as a scalar subquery.
func seriesWorkOf(site, seriesID string) string {
	return `(SELECT ` + seriesWorkSQL + ` FROM (SELECT) one` + seriesWorkJoins(site, seriesID) + `)`
}

// readerMembersSQL is the members of a Work as a Reader sees them: the
// Work's shared members the Reader has not hand-linked (a Series they
// linked by hand is in the Work of their link only, seriesWorkJoins) nor
// unlinked (memberInWorkSQL), and
// their own hand links to it (offset 0, pending: not yet confirmed by a
// second Reader). A shared member's offset is the Reader's (memberOffSQL). One row per member: (work_id, site, series_id, off,
// linked_by, drift_since, pending).
//
// reader is the Reader (an SQL expression: @reader, or a column for the
// all-Readers variant, collapseOwedSQL) and works a condition on the
// Work's id, completing "work_id ...": "IN (SELECT work_id FROM rw)",
// "= @work" or "= ANY(@works)".
func readerMembersSQL(reader, works string) string {
	return `SELECT rm.work_id, rm.site, rm.series_id, ` + memberOffSQL(reader, "rm") + ` AS off, rm.linked_by, rm.drift_since, false AS pending
		FROM work_members rm
		WHERE rm.work_id ` + works + ` AND NOT EXISTS (SELECT 1 FROM work_hand_links rx
			WHERE rx.reader_id = ` + reader + ` AND rx.site = rm.site AND rx.series_id = rm.series_id)
			AND ` + memberInWorkSQL(reader, "rm") + `
		UNION ALL
		SELECT rh.work_id, rh.site, rh.series_id, 0, 'reader', NULL, true
		FROM work_hand_links rh WHERE rh.reader_id = ` + reader + ` AND rh.work_id ` + works
}

// memberNumbersSQL reads each member row of members (a relation of
// readerMembersSQL's rows) with its Series' title and Latest date, and
// its Latest and the Reader's Progress on it in Work numbers (wl, wp).
//
// Each member's Series is one primary-key lookup: the LATERAL's LIMIT
// keeps it one. Joined plainly, the planner, blind to how few members the
// union yields, hashed the whole series table (120 ms at 200,000 Series).
func memberNumbersSQL(members string) string {
	return `SELECT x.work_id, x.site, x.series_id, x.off, s.title, s.latest_seen_at,
			s.latest_number + x.off AS wl, p.number + x.off AS wp
		FROM ` + members + ` x
		CROSS JOIN LATERAL (SELECT s.title, s.latest_seen_at, s.latest_number FROM series s
			WHERE s.site = x.site AND s.series_id = x.series_id LIMIT 1) s
		LEFT JOIN progress p ON p.reader_id = @reader AND p.site = x.site AND p.series_id = x.series_id`
}

// newSQL is when a story is New: its Latest above the Reader's Progress
// on it; a Reader with no Progress (or a story with no Latest) is not.
// For a Series in no Work both are the Series' own; for a Work, the
// highest of its members' in Work numbers (workFactsSQL).
func newSQL(latest, progress string) string {
	return `coalesce(` + latest + ` > ` + progress + `, false)`
}

// workFactsSQL is a Work's own facts as the Reader sees it, one row per
// Work of numbers (rows of memberNumbersSQL):
//
//   - top_site, top_series_id: the member showing the Work's Latest, the
//     first in workTopOrder;
//   - latest: its Latest in Work numbers (NULL when no member has one), and
//     appeared, when it was first seen;
//   - progress: the Reader's Progress on the Work, in Work numbers;
//   - is_new: newSQL over those two;
//   - title: the top member's title unless empty or no member has a
//     Latest, then the first non-empty member title in byte order, else "";
//   - hit: whether any member holds hit (an SQL condition on a row of
//     numbers: the library's text filter, or true).
func workFactsSQL(numbers, hit string) string {
	return `SELECT work_id, site AS top_site, series_id AS top_series_id, wl AS latest, progress, is_new, hit,
			CASE WHEN wl IS NOT NULL THEN latest_seen_at END AS appeared,
			coalesce(CASE WHEN wl IS NOT NULL THEN nullif(title, '') END, titled, '') AS title
		FROM (SELECT work_id, site, series_id, title, latest_seen_at, wl,
				row_number() OVER (PARTITION BY work_id ORDER BY ` + workTopOrder("wl", "latest_seen_at", "site", "series_id") + `) AS rn,
				max(wp) OVER p AS progress,
				` + newSQL("max(wl) OVER p", "max(wp) OVER p") + ` AS is_new,
				bool_or(` + hit + `) OVER p AS hit,
				min(nullif(title, '')) OVER p AS titled
			FROM (` + numbers + `) n
			WINDOW p AS (PARTITION BY work_id)) t
		WHERE rn = 1`
}

// workTopOrder orders a Work's members so that the first shows the Work's
// Latest: the highest number (wl, the member's Latest in Work numbers),
// the first seen of a tie, then by Site and id.
func workTopOrder(wl, seenAt, site, seriesID string) string {
	return wl + " DESC NULLS LAST, " + seenAt + ", " + site + ", " + seriesID
}

// readerWorks is the WITH clause that computes, once per query, the Works
// of Reader @reader's bookmarks matching where (a condition on bookmarks
// b; "true" for all of them), as workJoin joins them back:
//
//   - rw: each such bookmark in a Work, with the Work it is in for the
//     Reader (seriesWorkJoins);
//   - rm: the members of those Works as the Reader sees them
//     (readerMembersSQL), for a statement that reads them beside rwn
//     (updates.go);
//   - rwn: per Work in rw, its facts (workFactsSQL) over rm.
//
// Set-based rather than one correlated subquery per bookmark: each Work's
// numbers are aggregated once, and the plan's cost stays far below
// PostgreSQL's jit_above_cost (the per-bookmark LATERAL crossed it at 2000
// bookmarks, and compiling the plan cost more than running it).
func readerWorks(where string) string {
	return `WITH rw AS (
		SELECT b.site, b.series_id, ` + seriesWorkSQL + ` AS work_id
		FROM bookmarks b` + seriesWorkJoins("b.site", "b.series_id") + `
		WHERE b.reader_id = @reader AND (` + where + `) AND ` + seriesWorkSQL + ` IS NOT NULL
	), rm AS (
		` + readerMembersSQL("@reader", "IN (SELECT work_id FROM rw)") + `
	), rwn AS (
		` + workFactsSQL(memberNumbersSQL("rm"), "true") + `
	)`
}

// workJoin joins a bookmark row b of a query opened by readerWorks with
// its Work as its Reader sees it: wm.work_id is the Series' Work (NULL
// when in none) and wn the Work's facts.
const workJoin = `
	LEFT JOIN rw wm ON wm.site = b.site AND wm.series_id = b.series_id
	LEFT JOIN rwn wn ON wn.work_id = wm.work_id`

// isNewSQL is the New Chapter signal of a bookmark row under workJoin
// (Series s, Progress p): the Series' own for a Series in no Work, else
// its Work's.
var isNewSQL = `CASE WHEN wm.work_id IS NULL THEN ` + newSQL("s.latest_number", "p.number") + `
		ELSE coalesce(wn.is_new, false) END`

// noticeCaughtSQL says, for an owed notice n, whether its Reader's
// Progress has reached its number: on the Series for a notice of a Series
// in no Work (p), on the Work for a Work's notice (wp, noticeWorkProgress).
const noticeCaughtSQL = `CASE WHEN n.work_id IS NULL THEN coalesce(p.number >= n.number, false)
		ELSE coalesce(wp.number >= n.work_number, false) END`

// noticeWorkProgress joins an owed notice n with its Reader's Progress on
// its Work, in Work numbers.
var noticeWorkProgress = `
	LEFT JOIN LATERAL (SELECT max(p2.number + ` + memberOffSQL("n.reader_id", "m2") + `) AS number FROM work_members m2
		JOIN progress p2 ON p2.reader_id = n.reader_id AND p2.site = m2.site AND p2.series_id = m2.series_id
		WHERE m2.work_id = n.work_id AND ` + memberInWorkSQL("n.reader_id", "m2") + `) wp ON n.work_id IS NOT NULL`
