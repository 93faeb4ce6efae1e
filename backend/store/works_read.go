package store

import (
	"context"
	"fmt"
	"time"
)

// Work is one Work as a Reader sees it: its members, its Latest (the
// highest member Latest plus offset) and the Reader's Progress on it (the
// highest of their Progress on any member, in Work numbers).
type Work struct {
	ID int64
	// Title is the title of the member showing the Work's Latest (see
	// Latest) unless it is empty or no member has a Latest, then the first
	// non-empty member title in the database's order.
	Title string
	// Latest is the member showing the Work's Latest: the highest in Work
	// numbers, the first seen of a tie (then by Site and id; workTopOrder).
	// Number is in Work numbers. Nil when no member has a Latest Chapter.
	Latest *WorkLatest
	// Progress is the Reader's, in Work numbers; nil when they read none.
	ProgressNumber string
	ProgressReadAt *time.Time
	New            bool // Latest above Progress (and Progress known)
	// ContinueNumber (in Work numbers) and ContinueURL are the first
	// chapter past Progress, up to the Latest, whose page a Lane saw (a
	// Chapter Event, or the member's Latest) on a member the Reader
	// bookmarks; both "" when none is known or the Work is not New.
	// ContinueAfter tells whether it is the chapter right after Progress.
	// ContinueSite and ContinueSeriesID are the member of Continue.
	ContinueNumber, ContinueURL    string
	ContinueSite, ContinueSeriesID string
	Members                        []WorkMember
	// Offer is a member to follow instead when every member the Reader
	// bookmarks has failed for over a day (the working member showing the
	// Work's Latest, else the first working one); nil otherwise.
	Offer *WorkMember
	// Prefer is the Reader's preferred Site for the Work's notices
	// (works_prefs.go); nil when none.
	Prefer *WorkPref
	// Sightings are the Work's chapter sightings over every member the
	// Reader sees (Clock.Sightings).
	Sightings []time.Time
	// Status, FinalChapter (in shared Work numbers) and State are the
	// Work's status and the Reader's reading state (status_works.go).
	Status, FinalChapter, State string
}

// WorkLatest is where a Work's Latest Chapter was seen.
type WorkLatest struct {
	Number   string // Work numbers (member number + offset)
	Site     string
	SeriesID string
	URL      string
	SeenAt   *time.Time
}

// WorkMember is one member of a Work with its Site's facts.
type WorkMember struct {
	Site         string
	SeriesID     string
	Title        string
	URL          string
	LatestNumber string // the member's own number; "" when unknown
	LatestTitle  string
	LatestURL    string
	LatestSeenAt *time.Time
	Offset       string
	LinkedBy     string
	// FailingOutcome and FailingSince are set when the member's failure
	// row is older than a day (a shorter failure is not worth a word).
	FailingOutcome string
	FailingSince   *time.Time
	DriftSince     *time.Time // drifted (record_ok.go, driftUpdate) since; nil when not
	// Pending: the Reader's own hand link, not yet confirmed by another
	// Reader; the member holds in their library only.
	Pending bool
	// Bookmarked: the Reader bookmarks this member.
	Bookmarked bool
	// CheckedAt, ForcePollAt and Slow are the member's Lane stamps, for
	// its freshness (Clock).
	CheckedAt, ForcePollAt *time.Time
	Slow                   bool
}

// FailingShownAfter is how old a member's failure row must be before the
// Work shows the member failing.
const FailingShownAfter = 24 * time.Hour

// worksOfReaderSQL lists the members of the Works that hold any of the
// Reader's (@reader) bookmarks or hand links (some: the Works in @works
// only; else all), as the Reader sees them (readerMembersSQL), with the
// Work's facts (workFactsSQL) and Continue on every row. hold false lifts
// the "holds a bookmark" rule (WorkAfterAct; always with some). Each case
// is its own statement, not parameters of one: PostgreSQL's prepared plan
// of "@works IS NULL OR ..." was costed for a handful of rows and, kept
// for every Work of a large library, took twice as long as the plan for
// the case. @shown_after is when a failure is old enough to be shown.
//
// Continue (cont) is the first chapter past the Reader's Progress on the
// Work, up to its Latest, that a Lane saw with its page (a Chapter Event
// with a URL) on a member the Reader bookmarks, in Work numbers (exact:
// numeric), the lowest of them, then by Site and id; only for a New Work.
func worksOfReaderSQL(some, hold bool) string {
	onlyWork, works := "true", "= ANY(@works)"
	if some {
		onlyWork = "work_id = ANY(@works)"
	}
	if hold {
		works = "IN (SELECT work_id FROM mine)"
	}
	return `
	WITH mine AS (
		SELECT wm.work_id FROM bookmarks b
		JOIN work_members wm ON wm.site = b.site AND wm.series_id = b.series_id AND ` + memberInWorkSQL("@reader", "wm") + `
		WHERE b.reader_id = @reader AND (` + onlyWork + `)
		UNION SELECT work_id FROM work_hand_links WHERE reader_id = @reader AND (` + onlyWork + `)
	), m AS (
		` + readerMembersSQL("@reader", works) + `
	), wf AS (
		` + workFactsSQL(memberNumbersSQL("m"), "true") + `
	), cont AS (
		SELECT DISTINCT ON (m.work_id) m.work_id, e.number + m.off AS number, e.url, m.site, m.series_id
		FROM m JOIN wf ON wf.work_id = m.work_id AND wf.is_new
		JOIN bookmarks b ON b.reader_id = @reader AND b.site = m.site AND b.series_id = m.series_id
		CROSS JOIN LATERAL (SELECT n.number, n.url FROM (
				SELECT e.number, e.url FROM chapter_events e
				WHERE e.site = m.site AND e.series_id = m.series_id AND e.number > wf.progress - m.off AND e.url <> ''
				UNION ALL SELECT s.latest_number, s.latest_url FROM series s
				WHERE s.site = m.site AND s.series_id = m.series_id AND s.latest_url <> '') n
			WHERE n.number > wf.progress - m.off AND n.number <= wf.latest - m.off
			ORDER BY n.number LIMIT 1) e
		ORDER BY m.work_id, e.number + m.off, m.site, m.series_id
	), sg AS (
		` + sightingsSQL(`SELECT work_id AS k, site, series_id, off FROM m`) + `
	)
	SELECT m.work_id, m.site, m.series_id, s.title, s.url,
		coalesce(s.latest_number::text, ''), s.latest_title, s.latest_url, s.latest_seen_at,
		m.off::text, m.linked_by,
		CASE WHEN f.failing_since <= @shown_after THEN f.outcome ELSE '' END,
		CASE WHEN f.failing_since <= @shown_after THEN f.failing_since END, m.drift_since, m.pending,
		coalesce((s.latest_number + m.off)::text, ''),
		wf.latest IS NOT NULL AND (m.site, m.series_id) = (wf.top_site, wf.top_series_id), wf.title,
		coalesce(wf.progress::text, ''), CASE WHEN p.number + m.off = wf.progress THEN p.read_at END, wf.is_new,
		coalesce(cont.number::text, ''), coalesce(cont.url, ''), coalesce(cont.site, ''), coalesce(cont.series_id, ''),
		EXISTS (SELECT 1 FROM bookmarks bk WHERE bk.reader_id = @reader AND bk.site = m.site AND bk.series_id = m.series_id),
		wp.site, coalesce(wp.hold_minutes, 0), coalesce(wo.state, ''),
		s.latest_checked_at, s.force_poll_at, s.slow, coalesce(sg.sightings, '{}')
	FROM m
	JOIN wf ON wf.work_id = m.work_id
	LEFT JOIN cont ON cont.work_id = m.work_id
	LEFT JOIN sg ON sg.k = m.work_id
	JOIN series s ON s.site = m.site AND s.series_id = m.series_id
	LEFT JOIN poll_failures f ON f.site = m.site AND f.series_id = m.series_id
	LEFT JOIN progress p ON p.reader_id = @reader AND p.site = m.site AND p.series_id = m.series_id
	LEFT JOIN work_prefs wp ON wp.reader_id = @reader AND wp.work_id = m.work_id
	LEFT JOIN work_offers wo ON wo.reader_id = @reader AND wo.work_id = m.work_id
	ORDER BY m.work_id, m.site, m.series_id`
}

// ReaderWorks returns the Works holding any of the Reader's bookmarks, by
// id, as of now (which decides which failures are shown).
func (s *Store) ReaderWorks(ctx context.Context, readerID int64, now time.Time) ([]Work, error) {
	return s.readerWorks(ctx, readerID, nil, true, now)
}

// ReaderWorksOf is ReaderWorks narrowed to the Works in ids (those that
// hold none of the Reader's bookmarks are left out), by id.
func (s *Store) ReaderWorksOf(ctx context.Context, readerID int64, ids []int64, now time.Time) ([]Work, error) {
	if len(ids) == 0 {
		return []Work{}, nil
	}
	return s.readerWorks(ctx, readerID, ids, true, now)
}

// ReaderWork returns one Work, or ErrNotFound when it holds none of the
// Reader's bookmarks.
func (s *Store) ReaderWork(ctx context.Context, readerID, workID int64, now time.Time) (Work, error) {
	return s.oneWork(ctx, readerID, workID, true, now)
}

// WorkAfterAct returns a Work as the Reader's act left it, even when it no
// longer holds any of their bookmarks (they unlinked their only one);
// ErrNotFound when the Work has no member left.
func (s *Store) WorkAfterAct(ctx context.Context, readerID, workID int64, now time.Time) (Work, error) {
	return s.oneWork(ctx, readerID, workID, false, now)
}

func (s *Store) oneWork(ctx context.Context, readerID, workID int64, hold bool, now time.Time) (Work, error) {
	ws, err := s.readerWorks(ctx, readerID, []int64{workID}, hold, now)
	if err != nil {
		return Work{}, err
	}
	if len(ws) == 0 {
		return Work{}, ErrNotFound
	}
	return ws[0], nil
}

func (s *Store) readerWorks(ctx context.Context, readerID int64, ids []int64, hold bool, now time.Time) ([]Work, error) {
	args := namedArgs{"reader": readerID, "shown_after": now.Add(-FailingShownAfter)}
	if ids != nil {
		args["works"] = ids
	}
	rows, err := s.pool.Query(ctx, worksOfReaderSQL(ids != nil, hold), args)
	if err != nil {
		return nil, fmt.Errorf("store: reader works: %w", err)
	}
	defer rows.Close()
	out := []Work{}
	var offers []string // each Work's offer state, "" when none was made
	for rows.Next() {
		var id int64
		var m WorkMember
		var workNumber, progress, title, cont, contURL, contSite, contID, offer string
		var isLatest, isNew bool
		var readAt *time.Time
		var prefer WorkPref
		var preferSite *string
		var sightings []time.Time
		if err := rows.Scan(&id, &m.Site, &m.SeriesID, &m.Title, &m.URL, &m.LatestNumber, &m.LatestTitle, &m.LatestURL,
			&m.LatestSeenAt, &m.Offset, &m.LinkedBy, &m.FailingOutcome, &m.FailingSince, &m.DriftSince, &m.Pending,
			&workNumber, &isLatest, &title, &progress, &readAt, &isNew, &cont, &contURL, &contSite, &contID, &m.Bookmarked,
			&preferSite, &prefer.HoldMinutes, &offer, &m.CheckedAt, &m.ForcePollAt, &m.Slow, &sightings); err != nil {
			return nil, fmt.Errorf("store: reader works: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			out = append(out, Work{ID: id, Title: title, ProgressNumber: progress, New: isNew,
				ContinueNumber: cont, ContinueURL: contURL,
				ContinueSite: contSite, ContinueSeriesID: contID, Sightings: sightings})
			offers = append(offers, offer)
			if preferSite != nil {
				prefer.Site = *preferSite
				out[len(out)-1].Prefer = &prefer
			}
		}
		w := &out[len(out)-1]
		if isLatest {
			w.Latest = &WorkLatest{Number: workNumber, Site: m.Site, SeriesID: m.SeriesID, URL: m.LatestURL, SeenAt: m.LatestSeenAt}
		}
		if readAt != nil && w.ProgressReadAt == nil {
			w.ProgressReadAt = readAt
		}
		w.Members = append(w.Members, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reader works: %w", err)
	}
	for i := range out {
		// An offer declined or accepted is not made again.
		if st := offers[i]; st != OfferDeclined && st != OfferAccepted {
			out[i].Offer = followOffer(out[i])
		}
	}
	if err := s.fillWorkStatus(ctx, readerID, out); err != nil {
		return nil, err
	}
	return out, nil
}

// followOffer is the member a Reader may follow instead when every member
// they bookmark has failed for over a day (see Work.Offer).
func followOffer(w Work) *WorkMember {
	var mine, stuck int
	var pick *WorkMember
	for i := range w.Members {
		m := &w.Members[i]
		switch {
		case m.Bookmarked:
			mine++
			if m.FailingSince != nil {
				stuck++
			}
		case m.FailingSince == nil && (pick == nil || (w.Latest != nil && m.Site == w.Latest.Site && m.SeriesID == w.Latest.SeriesID)):
			pick = m
		}
	}
	if mine == 0 || stuck < mine || pick == nil {
		return nil
	}
	o := *pick
	return &o
}

// Suggestion is a stored Series whose titles look like another's: only
// ever a suggestion, shown with its Latest so a Reader can judge.
type Suggestion struct {
	Site         string
	SeriesID     string
	Title        string
	URL          string
	LatestNumber string // "" when unknown
	LatestURL    string
	LatestSeenAt *time.Time
	Matched      string  // the title of ours it looks like
	Score        float64 // pg_trgm word similarity, 0..1
	SharedID     string  // "kind value" of an id both carry ("" for a title suggestion)
}

// SeriesCard is one Series as GET /api/series/{site}/{series_id} shows it.
type SeriesCard struct {
	Site        string
	SeriesID    string
	Title       string
	URL         string
	IDs         []ExternalID
	WorkID      *int64
	Suggestions []Suggestion
}

// MaxSuggestions bounds the suggestions of one Series.
const MaxSuggestions = 10

// suggestionsSQL suggests Series for Reader $5's Series ($1, $2): only
// Series the Reader follows whose titles (title and other titles) hold
// one of ours ($3) by word similarity, and Series that carry an id of
// this one as the Reader sees ids (shared, or the Reader's own) but are
// not linked to it; never the Series itself or its Work's members. A
// Series only other Readers follow is never named.
var suggestionsSQL = `
	WITH cand AS (
		SELECT DISTINCT ON (c.site, c.series_id) c.site, c.series_id, q.t, word_similarity(q.t, series_titles(c.title, c.alt_titles)) AS score, ''::text AS shared
		FROM unnest($3::text[]) AS q(t)
		JOIN series c ON q.t <% series_titles(c.title, c.alt_titles)
		WHERE EXISTS (SELECT 1 FROM bookmarks b WHERE b.reader_id = $5 AND b.site = c.site AND b.series_id = c.series_id)
		ORDER BY c.site, c.series_id, score DESC
	), ided AS (
		SELECT DISTINCT ON (o.site, o.series_id) o.site, o.series_id, ''::text AS t, 1::real AS score, o.kind || ' ' || o.value AS shared
		FROM series_ids me JOIN series_ids o ON o.kind = me.kind AND o.value = me.value
			AND (o.reader_id IS NULL OR o.reader_id = $5)
		WHERE me.site = $1 AND me.series_id = $2 AND (me.reader_id IS NULL OR me.reader_id = $5)
		ORDER BY o.site, o.series_id, o.kind, o.value
	), best AS (
		SELECT DISTINCT ON (site, series_id) * FROM (SELECT * FROM ided UNION ALL SELECT * FROM cand) x
		WHERE NOT (x.site = $1 AND x.series_id = $2)
			AND NOT EXISTS (SELECT 1 FROM work_members cm JOIN work_members me
				ON me.site = $1 AND me.series_id = $2 AND me.work_id = cm.work_id
				WHERE cm.site = x.site AND cm.series_id = x.series_id
					AND ` + memberInWorkSQL("$5::bigint", "cm") + ` AND ` + memberInWorkSQL("$5::bigint", "me") + `)
		ORDER BY site, series_id, shared DESC
	)
	SELECT c.site, c.series_id, c.title, c.url, coalesce(c.latest_number::text, ''), c.latest_url, c.latest_seen_at,
		best.t, best.score, best.shared
	FROM best JOIN series c ON c.site = best.site AND c.series_id = best.series_id
	ORDER BY best.score DESC, c.site, c.series_id
	LIMIT $4`

// readerSeriesSQL reads a Series the Reader bookmarks and the Work it is
// in for them (seriesWorkJoins: their hand link, else its shared Work
// unless they unlinked it).
var readerSeriesSQL = `SELECT s.title, s.url, s.alt_titles, ` + seriesWorkSQL + `
		FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id` +
	seriesWorkJoins("b.site", "b.series_id") + `
		WHERE b.reader_id = @reader AND b.site = @site AND b.series_id = @series_id`

// ReaderSeries returns a Series the Reader bookmarks with its external
// ids, its Work and title suggestions; ErrNotFound when the Reader does
// not bookmark it.
func (s *Store) ReaderSeries(ctx context.Context, readerID int64, site, seriesID string) (SeriesCard, error) {
	c := SeriesCard{Site: site, SeriesID: seriesID}
	var alt []string
	err := s.pool.QueryRow(ctx, readerSeriesSQL, namedArgs{"reader": readerID, "site": site, "series_id": seriesID}).
		Scan(&c.Title, &c.URL, &alt, &c.WorkID)
	if err != nil {
		return SeriesCard{}, notFound("reader series", err)
	}
	if c.IDs, err = s.SeriesExternalIDs(ctx, readerID, site, seriesID); err != nil {
		return SeriesCard{}, err
	}
	titles := cleanAltTitles(append([]string{c.Title}, alt...))
	c.Suggestions = []Suggestion{}
	if len(titles) == 0 {
		return c, nil
	}
	rows, err := s.pool.Query(ctx, suggestionsSQL, site, seriesID, titles, MaxSuggestions, readerID)
	if err != nil {
		return SeriesCard{}, fmt.Errorf("store: suggestions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g Suggestion
		if err := rows.Scan(&g.Site, &g.SeriesID, &g.Title, &g.URL, &g.LatestNumber, &g.LatestURL, &g.LatestSeenAt,
			&g.Matched, &g.Score, &g.SharedID); err != nil {
			return SeriesCard{}, fmt.Errorf("store: suggestions: %w", err)
		}
		c.Suggestions = append(c.Suggestions, g)
	}
	if err := rows.Err(); err != nil {
		return SeriesCard{}, fmt.Errorf("store: suggestions: %w", err)
	}
	return c, nil
}
