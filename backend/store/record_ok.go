package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/safetext"
)

// This file is the Lanes' record of a good read: RecordOK's one statement
// (recordOKSQL) and every step of it, in the order it runs. Its named
// arguments are the read (@site, @series_id, @title, @cover_url, @number,
// @ch_title, @ch_url, @released_at), the read's time @now and
// @drift_margin. What the database then does by itself (the triggers on
// work_members) is in store/doc.go.

// ReadFacts is what a good read learned, in store terms. Empty Title or
// CoverURL keep the stored value; Number is a decimal string.
type ReadFacts struct {
	Title      string
	CoverURL   string
	Number     string
	ChTitle    string
	ChURL      string
	ReleasedAt *time.Time
	// IDs are the external ids the page carries (Source IDFromSite): new
	// ones are stored and link the Series into its Work before the read is
	// recorded. AltTitles are the page's other titles, kept for
	// suggestions; empty keeps the stored ones.
	IDs       []ExternalID
	AltTitles []string
	// Status and FinalChapter are the story's status as the page states
	// it and its final chapter ("" for none: the stored ones stay), stored
	// in the same transaction by recordStatus (status.go).
	Status       string
	FinalChapter string
}

// OKResult tells the Lane what a good read changed.
type OKResult struct {
	New       bool   // the Latest Chapter number moved from a known one
	CoverURL  string // the cover URL now stored
	NeedCover bool   // no stored image from CoverURL: a cover heal is due
	Event     bool   // the number passed the Series' highest: a Chapter Event was recorded
	Owed      int    // notices the Chapter Event made owed to Readers
}

// RecordOK stores a good read in one statement: title, cover URL and Latest
// Chapter (latest_seen_at moves only when the number changed) and deletes the
// failure row. A read that changes nothing writes no new row version (most
// hourly reads find nothing new). ErrNotFound when the Series was deleted
// meanwhile.
//
// In the same statement (so in the same transaction) a number above the
// Series' highest ever (max_number) records a Chapter Event and the
// notices it owes (chapter_events.go); the first good read only sets
// max_number, the baseline, and a number that fell and came back records
// nothing.
//
// A read whose page carries external ids or other titles stores them first
// and links the Series into its Work by the ids (works_link.go), in one
// transaction with the statement above.
func (s *Store) RecordOK(ctx context.Context, site, seriesID string, f ReadFacts, now time.Time) (OKResult, error) {
	if len(f.IDs) == 0 && len(f.AltTitles) == 0 && f.Status == "" {
		return recordOK(ctx, s.pool, site, seriesID, f, now)
	}
	// The page carries ids or other titles: store them, link, and record
	// the read in one transaction, so the read's notices already see the
	// Work it joined.
	var r OKResult
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := storeReadIdentity(ctx, tx, site, seriesID, f); err != nil {
			return fmt.Errorf("store: record ok: %w", err)
		}
		var err error
		if r, err = recordOK(ctx, tx, site, seriesID, f, now); err != nil {
			return err
		}
		return recordStatus(ctx, tx, site, seriesID, f, now)
	})
	if err != nil {
		return OKResult{}, err
	}
	return r, nil
}

// queryRower is what runs recordOKSQL: the pool or a transaction.
type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// recordOK runs recordOKSQL for one read.
func recordOK(ctx context.Context, q queryRower, site, seriesID string, f ReadFacts, now time.Time) (OKResult, error) {
	var r OKResult
	err := q.QueryRow(ctx, recordOKSQL, namedArgs{
		"site": site, "series_id": seriesID, "title": safetext.Line(f.Title), "cover_url": safetext.URL(f.CoverURL),
		"number": f.Number, "ch_title": safetext.Line(f.ChTitle), "ch_url": safetext.URL(f.ChURL),
		"released_at": f.ReleasedAt, "now": now, "drift_margin": driftMargin,
	}).Scan(&r.New, &r.CoverURL, &r.NeedCover, &r.Event, &r.Owed)
	if err != nil {
		return OKResult{}, notFound("record ok", err)
	}
	return r, nil
}

// recordOKSQL is RecordOK's one statement (see RecordOK): the read's
// facts on the series row, its failure row gone, the Chapter Event, the
// Work's drift, the notices owed and those a held notice hands over.
var recordOKSQL = `
		WITH old AS (
			SELECT site, series_id, latest_number, latest_seen_at, max_number,
				CASE WHEN @title <> '' THEN @title ELSE title END AS new_title,
				CASE WHEN @cover_url <> '' THEN @cover_url ELSE cover_url END AS new_cover,
				(title, cover_url, latest_number, latest_title, latest_url, latest_released_at) AS cur
			FROM series WHERE site = @site AND series_id = @series_id
		), upd AS (
			UPDATE series s SET title = old.new_title, cover_url = old.new_cover,
				latest_number = @number::numeric, latest_title = @ch_title, latest_url = @ch_url, latest_released_at = @released_at, slow = false,
				latest_seen_at = CASE WHEN old.latest_number IS DISTINCT FROM @number::numeric OR old.latest_seen_at IS NULL
					THEN @now ELSE old.latest_seen_at END,
				max_number = greatest(old.max_number, @number::numeric)
			FROM old WHERE s.site = old.site AND s.series_id = old.series_id
				AND (old.cur IS DISTINCT FROM (old.new_title, old.new_cover, @number::numeric, @ch_title::text, @ch_url::text, @released_at::timestamptz)
					OR old.latest_seen_at IS NULL OR old.max_number IS NULL)
		), del AS (
			DELETE FROM poll_failures WHERE site = @site AND series_id = @series_id
		), ev AS (
			` + eventInsert + `
		), wk AS (
			` + workOfRead + `
		), drift AS (
			` + driftUpdate + `
		), owed AS (
			` + owedInsert + `
		), released AS (
			` + heldRelease + `
		)
		SELECT coalesce(old.latest_number <> @number::numeric, false), old.new_cover,
			old.new_cover <> '' AND NOT EXISTS (SELECT 1 FROM covers c
				WHERE c.site = @site AND c.series_id = @series_id AND c.source_url = old.new_cover),
			EXISTS (SELECT 1 FROM ev), (SELECT count(*) FROM owed)
		FROM old`

// eventInsert is RecordOK's Chapter Event step (a CTE body over its "old"
// row and parameters): a number above the Series' highest ever records one
// event; a Series with no highest yet (its first good read) records none.
const eventInsert = `INSERT INTO chapter_events (site, series_id, number, title, url, seen_at)
			SELECT old.site, old.series_id, @number::numeric, @ch_title, @ch_url, @now FROM old
			WHERE old.max_number IS NOT NULL AND @number::numeric > old.max_number
			ON CONFLICT (site, series_id, number) DO NOTHING
			RETURNING id, site, series_id, number, seen_at`

// owedInsert is RecordOK's fan-out step over the event just recorded.
//
// A Series in no Work: each Reader who bookmarked the Series before the
// event (no backfill), whose Progress is below the number (or who has
// none) and whose bookmark is not muted is owed one notice; the primary
// key keeps it to one per number, ever.
//
// A member of a Work (wk, workOfRead) is told once
// (docs/adr/0021-works-link-by-ids.md): the event owes only when its number
// in Work terms is above every other member's highest shown inside the
// Work's current epoch (a member's max_number above its joined_max,
// migration 0015; a NULL joined_max counts all of it), so the first member to show a
// number inside the Work tells it and a later one owes nothing; and not
// while the member is held for drift. It then owes each Reader of any
// member one notice, on their bookmark of the member that showed it when
// they have one, whose Progress on the Work is below the number, unless
// the Reader was told the number already (a notice, in any state, of it
// or a higher one on a member) or a member they bookmark besides this one
// has shown it (told then, or out before the bookmark: no backfill). A
// number another member showed before the Work's membership last changed
// was not told to this member's Readers, so it is told to them now, when
// their Site shows it. The unique (reader, work, number) index keeps a
// concurrent Lane's read of another member from owing it twice. A bookmark
// on hold or dropped owes nothing (notQuietSQL, reading_states.go). A Reader who prefers another Site
// for the Work (work_prefs) is owed it held up to their hold minutes
// (held_until): heldRelease hands it the preferred member's chapter if
// that member shows the number first.
//
// A Reader who unlinked the member read, or whose unlinks left the Work
// under two members for them (readerInWorkSQL), holds it as a lone
// Series: they are owed as for a Series in no Work. The members another
// Reader unlinked count for everyone else; the members this Reader
// unlinked count for nothing of theirs (docs/adr/0021-works-link-by-ids.md,
// "Unlinks per Reader").
//
// Work terms are each Reader's own: every member's offset is the one the
// Reader sees (ro.ev_off for the member read, memberOffSQL for the others;
// docs/adr/0021-works-link-by-ids.md, "Offsets per Reader"), so another
// Reader's offset moves none of this Reader's numbers. Only drift is
// judged on the shared offsets (wk.off, wk.others_latest).
var owedInsert = `INSERT INTO reader_notices (reader_id, site, series_id, number, event_id, seen_at, work_id, work_number, held_until)
			(SELECT b.reader_id, ev.site, ev.series_id, ev.number, ev.id, ev.seen_at, NULL::bigint, NULL::numeric, NULL::timestamptz
			FROM ev JOIN bookmarks b ON b.site = ev.site AND b.series_id = ev.series_id
			LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
			WHERE (NOT EXISTS (SELECT 1 FROM wk) OR EXISTS (SELECT 1 FROM wk
					WHERE NOT ` + readerInWorkSQL("b.reader_id", "wk.work_id", "ev.site", "ev.series_id") + `))
				AND b.created_at < ev.seen_at AND b.notify_mode <> 'off'
				AND ` + notQuietSQL("b") + `
				AND (p.number IS NULL OR p.number < ev.number))
			UNION ALL
			(SELECT DISTINCT ON (x.reader_id) x.reader_id, x.site, x.series_id, ev.number + x.ev_off - x.off,
				ev.id, ev.seen_at, wk.work_id, ev.number + x.ev_off,
				CASE WHEN wp.site <> ev.site THEN ev.seen_at + wp.hold_minutes * interval '1 minute' END
			FROM ev CROSS JOIN wk
			CROSS JOIN LATERAL (SELECT v.*,
					max(v.off) FILTER (WHERE v.is_ev) OVER r AS ev_off,
					max(v.max_number + v.off) FILTER (WHERE NOT v.is_ev AND v.max_number > coalesce(v.joined_max, '-Infinity')) OVER r AS shown,
					max(v.progress + v.off) OVER r AS progress_max,
					max(v.told + v.off) OVER r AS told_max,
					max(v.max_number + v.off) FILTER (WHERE NOT v.is_ev AND v.bookmarked) OVER r AS bookmarked_max
				FROM (` + owedWorkView + `) v
				WINDOW r AS (PARTITION BY v.reader_id)) x
			LEFT JOIN work_prefs wp ON wp.reader_id = x.reader_id AND wp.work_id = wk.work_id
			WHERE x.bookmarked AND x.bookmarked_at < ev.seen_at AND x.notify_mode <> 'off'
				AND NOT coalesce(wk.drift_since <= ev.seen_at - interval '1 day'
					AND ev.number + wk.off > wk.others_latest + @drift_margin, false)
				AND ` + notQuietSQL("x") + `
				AND coalesce(x.shown < ev.number + x.ev_off, true)
				AND coalesce(x.progress_max < ev.number + x.ev_off, true)
				AND coalesce(x.told_max < ev.number + x.ev_off, true)
				AND coalesce(x.bookmarked_max < ev.number + x.ev_off, true)
			ORDER BY x.reader_id, x.is_ev DESC, x.site, x.series_id)
			ON CONFLICT DO NOTHING
			RETURNING 1`

// owedWorkView is owedInsert's view of the read member's Work (wk) by
// each Reader it may owe (a LATERAL body over ev and wk): one row per
// Reader who bookmarks a member and for whom the member read is in the
// Work (readerInWorkSQL), and per member of the Work they did not unlink,
// with the Reader's offset on it (memberOffJoin), its highest number and
// epoch start, the Reader's Progress on it, the highest number they were
// told of it and their bookmark of it. owedInsert aggregates it once per
// Reader: six members at most (one per Site), so the statement's cost is
// the Readers' count times six lookups, whatever the Work. Each lookup is
// a LIMIT 1 by a key, so no plan hashes a whole table, and OFFSET 0 keeps
// the rows computed once (each column is read by several aggregates).
var owedWorkView = `SELECT r.reader_id, m.site, m.series_id, (m.site = ev.site AND m.series_id = ev.series_id) AS is_ev,
				` + memberOffOf("m", "rof") + ` AS off, s.max_number, m.joined_max, p.number AS progress,
				(SELECT max(n.number) FROM reader_notices n
					WHERE n.reader_id = r.reader_id AND n.site = m.site AND n.series_id = m.series_id) AS told,
				bk.created_at IS NOT NULL AS bookmarked, bk.created_at AS bookmarked_at, bk.notify_mode, bk.state
			FROM (SELECT r0.reader_id FROM (SELECT DISTINCT b0.reader_id FROM work_members m0
					JOIN bookmarks b0 ON b0.site = m0.site AND b0.series_id = m0.series_id
					WHERE m0.work_id = wk.work_id) r0
				WHERE ` + readerInWorkSQL("r0.reader_id", "wk.work_id", "ev.site", "ev.series_id") + `) r
			JOIN work_members m ON m.work_id = wk.work_id
			CROSS JOIN LATERAL (SELECT s.max_number FROM series s WHERE s.site = m.site AND s.series_id = m.series_id LIMIT 1) s` +
	memberOffJoin("r.reader_id", "m", "rof") + `
			LEFT JOIN progress p ON p.reader_id = r.reader_id AND p.site = m.site AND p.series_id = m.series_id
			LEFT JOIN LATERAL (SELECT bk.created_at, bk.notify_mode, bk.state FROM bookmarks bk
				WHERE bk.reader_id = r.reader_id AND bk.site = m.site AND bk.series_id = m.series_id LIMIT 1) bk ON true
			WHERE NOT ` + readerUnlinkedSQL("r.reader_id", "m.work_id", "m.site", "m.series_id") + `
			OFFSET 0`

// heldRelease is RecordOK's step for a preferred member showing a number
// another member showed first: each Reader who prefers this member's Site
// and still owes the Work's notice of the number has it point at this
// chapter (and at their bookmark of this member, when they have one) and
// no longer held (docs/adr/0021-works-link-by-ids.md, "Hold").
// The later member owes nothing new, so the notice stays one.
var heldRelease = `UPDATE reader_notices n SET event_id = ev.id, held_until = NULL,
				site = coalesce(pb.site, n.site), series_id = coalesce(pb.series_id, n.series_id),
				number = CASE WHEN pb.site IS NULL THEN n.number ELSE ev.number END
			FROM ev CROSS JOIN wk
			JOIN work_prefs wp ON wp.work_id = wk.work_id
			LEFT JOIN bookmarks pb ON pb.reader_id = wp.reader_id AND pb.site = ev.site AND pb.series_id = ev.series_id
				AND NOT EXISTS (SELECT 1 FROM reader_notices x WHERE x.reader_id = wp.reader_id
					AND x.site = ev.site AND x.series_id = ev.series_id AND x.number = ev.number)
			WHERE wp.site = ev.site AND n.reader_id = wp.reader_id AND n.work_id = wk.work_id
				AND n.work_number = ev.number + ` + readerOffSQL("wp.reader_id", "wk.work_id", "ev.site", "ev.series_id", "wk.off") + `
				AND n.held_until IS NOT NULL AND n.done_at IS NULL
			RETURNING 1`

// driftMargin is how far (in chapters) a member's Latest may stand above
// every other working member's before it counts as drifted; a member
// drifted for over a day owes no notices (owedInsert). The statement takes
// it as @drift_margin.
const driftMargin = 5

// DriftMargin is driftMargin for the pages: the Work page advises an
// offset for a member drifted past it in the Reader's own numbers.
const DriftMargin = driftMargin

// workOfRead is RecordOK's view of the read Series' Work (a CTE body): its
// membership, shared offset and drift, and the other members' highest
// Latest now (leaving out failing ones, whose Latest stands still) in
// shared Work numbers, for drift. No row when the Series is in no Work.
const workOfRead = `SELECT m.work_id, m."offset" AS off, m.drift_since,
				(SELECT max(s2.latest_number + m2."offset") FROM work_members m2
					JOIN series s2 ON s2.site = m2.site AND s2.series_id = m2.series_id
					WHERE m2.work_id = m.work_id AND (m2.site, m2.series_id) <> (m.site, m.series_id)
						AND NOT EXISTS (SELECT 1 FROM poll_failures f
							WHERE f.site = m2.site AND f.series_id = m2.series_id)) AS others_latest
			FROM work_members m WHERE m.site = @site AND m.series_id = @series_id`

// driftUpdate is RecordOK's drift step over wk: the member is drifted from
// the first read that finds it more than driftMargin above the others, and
// no longer once a read finds it within.
const driftUpdate = `UPDATE work_members m SET drift_since = d.since
			FROM (SELECT CASE WHEN @number::numeric + wk.off > wk.others_latest + @drift_margin
				THEN coalesce(wk.drift_since, @now) END AS since FROM wk) d
			WHERE m.site = @site AND m.series_id = @series_id AND m.drift_since IS DISTINCT FROM d.since`
