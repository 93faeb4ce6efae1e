package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Updates (docs/CONTEXT.md, "Updates") is a Reader's New Chapters across
// their library, newest first: the Chapter Events of their stories, a
// Work's once per number. It reads the Works the one way the library
// does (readerWorks, works_numbers.go).

// UpdatesMax is the most Updates one call returns.
const UpdatesMax = 200

// UpdatesCursor is where a page of Updates ends: the last Update's
// sighting. The next page holds the Updates seen before it.
type UpdatesCursor struct {
	SeenAt time.Time
	ID     int64 // the Chapter Event's id, breaking ties of SeenAt
}

// String is the cursor as a link carries it: microseconds since 1970 and
// the event id, "1733480000000000.123".
func (c UpdatesCursor) String() string {
	return strconv.FormatInt(c.SeenAt.UnixMicro(), 10) + "." + strconv.FormatInt(c.ID, 10)
}

// ErrBadCursor is a cursor that is no UpdatesCursor.String.
var ErrBadCursor = errors.New("store: not an updates cursor")

// ParseUpdatesCursor reads a cursor String made; anything else is
// ErrBadCursor.
func ParseUpdatesCursor(s string) (UpdatesCursor, error) {
	at, id, ok := strings.Cut(s, ".")
	if !ok || len(s) > 40 || !digits(at) || !digits(id) {
		return UpdatesCursor{}, ErrBadCursor
	}
	us, err1 := strconv.ParseInt(at, 10, 64)
	n, err2 := strconv.ParseInt(id, 10, 64)
	// Beyond year 9999 PostgreSQL holds no timestamp to compare with.
	if err1 != nil || err2 != nil || n < 1 || us > 253402300799999999 {
		return UpdatesCursor{}, ErrBadCursor
	}
	return UpdatesCursor{SeenAt: time.UnixMicro(us).UTC(), ID: n}, nil
}

// digits says whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Update is one New Chapter of a Reader's story.
type Update struct {
	EventID      int64
	WorkID       *int64 // the story's Work; nil for a Series in none
	Site         string // the Series that showed the chapter (a Work's member that showed it first)
	SeriesID     string
	StoryTitle   string // the Work's title as the library shows it, or the Series'; "" when unknown
	Number       string // in the story's numbers (a Work's, with the Reader's offsets)
	SeriesNumber string // the Series' own number
	ChapterTitle string
	URL          string
	SeenAt       time.Time
	Read         bool // the Reader's Progress on the story has reached Number
}

// UpdatesPage is one page of Updates and where the next starts.
type UpdatesPage struct {
	Updates []Update
	Next    *UpdatesCursor // nil on the last page
}

// updatesSQL is one page of Reader @reader's Updates: the Chapter Events
// of each of their stories seen after they bookmarked it (their first
// bookmark of a Work's members; as the feed and the notices, and as
// Mihon's Updates, nothing from before the story joined the library), of
// no story on hold or dropped (storyStateSQL: the state its card shows),
// seen before the cursor (@before_at, @before_id; @before_id 0 for the
// first page), newest first, at most @limit.
//
// A story is a Work as the Reader sees it (readerWorks' rw and rm: their
// hand links, not the members they unlinked, no Work their unlinks
// thinned) or a Series in none. A Work shows each number in the Reader's
// Work numbers once: its first sighting among the members they see,
// whether or not they bookmark that member, as the notices tell it once;
// a number first shown before the story joined the library is not shown
// when a later member shows it. Read is the Reader's Progress on the
// story at or past the number: the Series' own, or the Work's as the
// library reads it (workFactsSQL, which also gives the Work's title).
//
// The page is found newest first and the scan stops at it: the Chapter
// Events are read in (seen_at, id) order, descending (its index, migration
// 0028), each looked up in a map of the library's stories built once
// (src: by Series, its Work, offset, since and the Work's members), and a
// Work's event is kept when no member the Reader sees showed its Work
// number earlier (by seen_at, then id: one probe of the (site, series_id,
// number) key per member). Only the page's rows are then read whole: their
// events, Series, Progress and Works' facts. Sorting every Work's events
// to pick each number's first sighting cost most of the page at 20,000
// events. The map is a jsonb object, not a join, so the scan keeps its
// order; it is built in the scan's own subquery (OFFSET 0), an InitPlan
// costed once, and the member probes unnest an array (costed as a few
// rows, not jsonb_array_elements' hundred), which keeps the plan under
// jit_above_cost (JIT cost 150 ms a run when either was per row).
// (readerWorks' rwn is not referenced, so PostgreSQL never computes it.)
var updatesSQL = readerWorks("true") + `, st AS (
		SELECT wm.work_id, CASE WHEN wm.work_id IS NULL THEN b.site END AS site,
			CASE WHEN wm.work_id IS NULL THEN b.series_id END AS series_id,
			min(b.created_at) AS since, ` + storyStateSQL("b.state", "b.state_at", "b.site", "b.series_id") + ` AS state
		FROM bookmarks b LEFT JOIN rw wm ON wm.site = b.site AND wm.series_id = b.series_id
		WHERE b.reader_id = @reader
		GROUP BY 1, 2, 3
	), live AS (
		SELECT * FROM st WHERE ` + notQuietSQL("st") + `
	), mem AS (
		SELECT work_id, jsonb_agg(jsonb_build_array(site, series_id, off)) AS m FROM rm GROUP BY work_id
	), src AS (
		SELECT jsonb_build_array(live.site, live.series_id)::text AS k, jsonb_build_array(NULL, 0, live.since, '[]'::jsonb) AS v
		FROM live WHERE live.work_id IS NULL
		UNION ALL
		SELECT jsonb_build_array(rm.site, rm.series_id)::text, jsonb_build_array(rm.work_id, rm.off, live.since, mem.m)
		FROM live JOIN rm ON rm.work_id = live.work_id JOIN mem ON mem.work_id = live.work_id
	), pg AS (
		SELECT (x.v->>0)::bigint AS work_id, x.id, x.seen_at, x.number + (x.v->>1)::numeric AS wn
		FROM (SELECT e.id, e.seen_at, e.number,
				(SELECT jsonb_object_agg(k, v) FROM src) -> jsonb_build_array(e.site, e.series_id)::text AS v
			FROM chapter_events e
			WHERE @before_id::bigint = 0 OR (e.seen_at, e.id) < (@before_at::timestamptz, @before_id::bigint)
			ORDER BY e.seen_at DESC, e.id DESC OFFSET 0) x
		WHERE x.v IS NOT NULL AND x.seen_at > (x.v->>2)::timestamptz
			AND NOT EXISTS (SELECT FROM unnest(ARRAY(SELECT jsonb_array_elements(x.v->3))) o
				WHERE (SELECT (e2.seen_at, e2.id) < (x.seen_at, x.id) FROM chapter_events e2
					WHERE e2.site = o->>0 AND e2.series_id = o->>1 AND e2.number = x.number + (x.v->>1)::numeric - (o->>2)::numeric))
		ORDER BY x.seen_at DESC, x.id DESC
		LIMIT @limit
	)
	SELECT pg.id, pg.work_id, e.site, e.series_id,
		coalesce(CASE WHEN pg.work_id IS NULL THEN s.title ELSE wf.title END, ''),
		pg.wn::text, e.number::text, e.title, e.url, e.seen_at,
		CASE WHEN pg.work_id IS NULL THEN coalesce(p.number >= e.number, false)
			ELSE coalesce(wf.progress >= pg.wn, false) END
	FROM pg
	JOIN chapter_events e ON e.id = pg.id
	JOIN series s ON s.site = e.site AND s.series_id = e.series_id
	LEFT JOIN progress p ON pg.work_id IS NULL AND p.reader_id = @reader AND p.site = e.site AND p.series_id = e.series_id
	LEFT JOIN LATERAL (` + workFactsSQL(memberNumbersSQL("("+readerMembersSQL("@reader", "= pg.work_id")+")"), "true") + `) wf ON true
	ORDER BY pg.seen_at DESC, pg.id DESC`

// Updates returns one page of the Reader's Updates: at most limit (1 to
// UpdatesMax) seen before the cursor (nil for the newest), in one
// statement.
func (s *Store) Updates(ctx context.Context, readerID int64, before *UpdatesCursor, limit int) (UpdatesPage, error) {
	limit = min(max(limit, 1), UpdatesMax)
	args := namedArgs{"reader": readerID, "before_at": time.Time{}, "before_id": int64(0), "limit": limit + 1}
	if before != nil {
		args["before_at"], args["before_id"] = before.SeenAt, before.ID
	}
	rows, err := s.pool.Query(ctx, updatesSQL, args)
	if err != nil {
		return UpdatesPage{}, fmt.Errorf("store: updates: %w", err)
	}
	defer rows.Close()
	p := UpdatesPage{Updates: []Update{}}
	for rows.Next() {
		var u Update
		if err := rows.Scan(&u.EventID, &u.WorkID, &u.Site, &u.SeriesID, &u.StoryTitle, &u.Number, &u.SeriesNumber,
			&u.ChapterTitle, &u.URL, &u.SeenAt, &u.Read); err != nil {
			return UpdatesPage{}, fmt.Errorf("store: updates: %w", err)
		}
		p.Updates = append(p.Updates, u)
	}
	if err := rows.Err(); err != nil {
		return UpdatesPage{}, fmt.Errorf("store: updates: %w", err)
	}
	if len(p.Updates) > limit {
		p.Updates = p.Updates[:limit]
		last := p.Updates[limit-1]
		p.Next = &UpdatesCursor{SeenAt: last.SeenAt, ID: last.EventID}
	}
	return p, nil
}

// MarkReadTo marks a bookmarked Series read up to chapter number (its own
// numbers), read at `at`: the one Progress statement every read takes
// (ProgressUpsertSQL, as AdvanceProgress and a notice's Mark read), so it
// only moves Progress forward and refuses a number too far past the
// Latest Chapter. It reports whether Progress moved; a bookmark the Reader
// does not have is ErrNotFound (and is not created). Updates' Mark read on
// a Series in no Work; a Work's is SetWorkProgress, forward.
func (s *Store) MarkReadTo(ctx context.Context, readerID int64, site, seriesID, number string, at time.Time) (bool, error) {
	var bookmarked, moved bool
	var past *string
	err := s.pool.QueryRow(ctx, ProgressUpsertSQL, readerID, site, seriesID, number, "", at).Scan(&bookmarked, &moved, &past)
	if err != nil {
		return false, fmt.Errorf("store: mark read to: %w", err)
	}
	if !bookmarked {
		return false, ErrNotFound
	}
	return moved, nil
}
