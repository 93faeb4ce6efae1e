package store

import (
	"context"
	"fmt"
	"math"

	"mangabookmark/backend/safetext"
)

// The library page's sorts (LibraryQuery.Sort).
const (
	// LibrarySortNew is the library's order: New Chapters first, then by
	// when the Latest Chapter came out (newest first, unknown last).
	LibrarySortNew = "new"
	// LibrarySortUpdated is by when the card's Latest appeared, newest first.
	LibrarySortUpdated = "updated"
	// LibrarySortTitle is by title, case folded, in byte order.
	LibrarySortTitle = "title"
)

// LibraryQuery is what one library page asks: its filters, its sort and
// which page of PerPage cards.
type LibraryQuery struct {
	Site    string // only cards with a bookmark on this Site; "" for all
	Text    string // only cards whose title, a member's title or a member's "site id" holds it, case folded; "" for all
	OnlyNew bool   // only cards with New Chapters
	Sort    string // a LibrarySort; anything else is LibrarySortNew
	Page    int    // 1-based; below 1 is the first, past the last the last
	PerPage int    // at least 1
}

// LibraryCard is one card of the library: one story. A lone Series is a
// card of its bookmark; the Reader's bookmarks that are members of one Work
// make the Work's one card.
type LibraryCard struct {
	WorkID *int64        // nil for a lone Series
	Items  []LibraryItem // the card's bookmarks as Library gives them, in its order
}

// LibraryPage is one page of a Reader's library.
type LibraryPage struct {
	Cards    []LibraryCard
	Total    int      // cards before the filters
	NewCount int      // cards with New Chapters, before the filters
	Matched  int      // cards the filters keep, on every page
	Page     int      // the page given (the asked one, within 1..last)
	Sites    []string // the Sites the Reader has bookmarks on, by name
}

// libraryPageSQL sorts, filters, counts and pages the Reader's cards in
// one statement, and returns the whole rows (libraryItemJoins) of the
// shown cards' bookmarks only: at 2,000 bookmarks, decoding every row in
// Go and reading each Work's members cost several times the page itself.
//
// A Work's New, title, Latest date and text match are the Work's, over
// every member the Reader sees (those they do not bookmark, their own
// pending hand links) as ReaderWorks reads them: the member showing the
// Work's Latest is the first in workTopOrder; its title is the Work's
// unless empty or no member has a Latest, then the first non-empty member
// title in the database's order. In the library's order a card stands by
// New, then by its newest Latest date (released, else seen; unknown last),
// then by the least of its bookmarks' titles, Sites and ids. Every row
// carries the page's counts, and a page with no card is one row of counts
// alone (the card number n is NULL).
//
// $1 reader, $2 Site filter, $3 text filter, $4 only New, $5 sort,
// $6 page, $7 cards a page.
var libraryPageSQL = `
	WITH mine AS (
		SELECT b.site, b.series_id, coalesce(h.work_id, m.work_id) AS work_id,
			CASE WHEN h.work_id IS NULL THEN m."offset" ELSE 0 END AS off,
			s.title, s.latest_seen_at, coalesce(s.latest_released_at, s.latest_seen_at) AS d, s.latest_number, p.number
		FROM bookmarks b
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id
		LEFT JOIN work_hand_links h ON h.reader_id = b.reader_id AND h.site = b.site AND h.series_id = b.series_id
		LEFT JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
		WHERE b.reader_id = $1
	), more AS (
		SELECT o.work_id, o.site, o.series_id, o.off, s.title, s.latest_seen_at, s.latest_number, p.number
		FROM (SELECT m.work_id, m.site, m.series_id, m."offset" AS off FROM work_members m
			WHERE m.work_id IN (SELECT work_id FROM mine)
				AND NOT EXISTS (SELECT 1 FROM mine WHERE mine.site = m.site AND mine.series_id = m.series_id)
				AND NOT EXISTS (SELECT 1 FROM work_hand_links h WHERE h.reader_id = $1
					AND h.site = m.site AND h.series_id = m.series_id AND h.work_id <> m.work_id)
			UNION ALL
			SELECT h.work_id, h.site, h.series_id, 0 FROM work_hand_links h
			WHERE h.reader_id = $1 AND h.work_id IN (SELECT work_id FROM mine)
				AND NOT EXISTS (SELECT 1 FROM mine WHERE mine.site = h.site AND mine.series_id = h.series_id)) o
		JOIN series s ON s.site = o.site AND s.series_id = o.series_id
		LEFT JOIN progress p ON p.reader_id = $1 AND p.site = o.site AND p.series_id = o.series_id
	), w AS (
		SELECT work_id, is_new, hit, CASE WHEN wl IS NOT NULL THEN latest_seen_at END AS appeared,
			coalesce(CASE WHEN wl IS NOT NULL THEN nullif(title, '') END, titled, '') AS title
		FROM (SELECT work_id, wl, title, latest_seen_at,
				row_number() OVER (PARTITION BY work_id ORDER BY ` + workTopOrder("wl", "latest_seen_at", "site", "series_id") + `) AS rn,
				coalesce(max(wl) OVER p > max(wp) OVER p, false) AS is_new,
				bool_or(` + textHit("title", "site", "series_id") + `) OVER p AS hit,
				min(nullif(title, '')) OVER p AS titled
			FROM (SELECT work_id, site, series_id, title, latest_seen_at, latest_number + off AS wl, number + off AS wp
				FROM mine WHERE work_id IS NOT NULL
				UNION ALL
				SELECT work_id, site, series_id, title, latest_seen_at, latest_number + off, number + off FROM more) u
			WINDOW p AS (PARTITION BY work_id)) t
		WHERE rn = 1
	), cards AS (
		SELECT mine.work_id, min(mine.site) AS site, min(mine.series_id) AS series_id,
			CASE WHEN mine.work_id IS NULL THEN bool_or(coalesce(mine.latest_number > mine.number, false))
				ELSE bool_or(w.is_new) END AS is_new,
			CASE WHEN mine.work_id IS NULL THEN bool_or(` + textHit("mine.title", "mine.site", "mine.series_id") + `)
				ELSE bool_or(w.hit) END AS hit,
			bool_or(mine.site = $2) AS on_site, max(mine.d) AS d, min(mine.title) AS first_title,
			CASE WHEN mine.work_id IS NULL THEN min(mine.title) ELSE min(w.title) END AS title,
			CASE WHEN mine.work_id IS NULL THEN min(mine.latest_seen_at) ELSE min(w.appeared) END AS appeared
		FROM mine LEFT JOIN w ON w.work_id = mine.work_id
		GROUP BY mine.work_id, CASE WHEN mine.work_id IS NULL THEN mine.site END,
			CASE WHEN mine.work_id IS NULL THEN mine.series_id END
	), kept AS (
		SELECT work_id, site, series_id, is_new, row_number() OVER (ORDER BY
				CASE WHEN $5 = '` + LibrarySortUpdated + `' THEN appeared END DESC NULLS LAST,
				CASE WHEN $5 = '` + LibrarySortTitle + `' THEN lower(title) END COLLATE "C",
				is_new DESC, d DESC NULLS LAST, first_title, site, series_id) AS n
		FROM cards
		WHERE ($2 = '' OR on_site) AND hit AND (is_new OR NOT $4)
	), t AS (
		SELECT total, new_count, sites, matched, least($6::bigint, greatest(1, (matched + $7::bigint - 1) / $7::bigint)) AS page
		FROM (SELECT count(*) AS total, count(*) FILTER (WHERE is_new) AS new_count,
			(SELECT coalesce(array_agg(DISTINCT site ORDER BY site), '{}') FROM mine) AS sites,
			(SELECT count(*) FROM kept) AS matched FROM cards) t
	), shown AS (
		SELECT k.* FROM t JOIN kept k ON k.n > (t.page - 1) * $7::bigint AND k.n <= t.page * $7::bigint
	)
	SELECT t.total, t.new_count, t.sites, t.matched, t.page, x.*
	FROM t LEFT JOIN (
		SELECT sh.n, coalesce(s.latest_released_at, s.latest_seen_at) AS d,
			` + libraryItemColumns("sh.is_new", "sh.work_id") + `
		FROM (SELECT n, is_new, work_id, site, series_id FROM shown WHERE work_id IS NULL
			UNION ALL
			SELECT sh.n, sh.is_new, sh.work_id, mine.site, mine.series_id FROM shown sh JOIN mine ON mine.work_id = sh.work_id) sh
		JOIN bookmarks b ON b.reader_id = $1 AND b.site = sh.site AND b.series_id = sh.series_id` + libraryItemJoins + `
	) x ON true
	ORDER BY x.n, x.d DESC NULLS LAST, x.title, x.site, x.series_id`

// textHit is the text filter ($3, "" for none) on one Series: its title
// or its "site id" holds the text, case folded.
func textHit(title, site, seriesID string) string {
	return `($3 = '' OR strpos(lower(` + title + `), lower($3)) > 0 OR strpos(lower(` + site + ` || ' ' || ` + seriesID + `), lower($3)) > 0)`
}

// workTopOrder orders a Work's members so that the first shows the Work's
// Latest: the highest number (wl, the member's Latest in Work numbers),
// the first seen of a tie, then by Site and id. ReaderWorks and the
// library page pick by it alike.
func workTopOrder(wl, seenAt, site, seriesID string) string {
	return wl + " DESC NULLS LAST, " + seenAt + ", " + site + ", " + seriesID
}

// LibraryPage returns one page of the Reader's library (q): its cards,
// sorted and filtered, with the counts around them.
func (s *Store) LibraryPage(ctx context.Context, readerID int64, q LibraryQuery) (LibraryPage, error) {
	if q.Sort != LibrarySortUpdated && q.Sort != LibrarySortTitle {
		q.Sort = LibrarySortNew
	}
	q.Page, q.PerPage = min(max(q.Page, 1), math.MaxInt32), min(max(q.PerPage, 1), math.MaxInt32)
	// A filter comes from a URL: it is cleaned as stored text is (invalid
	// UTF-8 becomes U+FFFD, control bytes go), so text PostgreSQL would
	// refuse is looked for as a stored title would hold it, not an error.
	q.Site, q.Text = safetext.Line(q.Site), safetext.Line(q.Text)
	rows, err := s.pool.Query(ctx, libraryPageSQL, readerID, q.Site, q.Text, q.OnlyNew, q.Sort, q.Page, q.PerPage)
	if err != nil {
		return LibraryPage{}, fmt.Errorf("store: library page: %w", err)
	}
	defer rows.Close()
	var p LibraryPage
	last := int64(-1)
	for rows.Next() {
		var n *int64
		head := []any{&p.Total, &p.NewCount, &p.Sites, &p.Matched, &p.Page, &n}
		if rows.RawValues()[len(head)-1] == nil { // no card shown: the counts alone
			if err := rows.Scan(append(head, make([]any, len(rows.RawValues())-len(head))...)...); err != nil {
				return LibraryPage{}, fmt.Errorf("store: library page: %w", err)
			}
			continue
		}
		var it LibraryItem
		// nil skips d, the column the rows are ordered by within a card.
		if err := rows.Scan(append(append(head, nil), it.dests()...)...); err != nil {
			return LibraryPage{}, fmt.Errorf("store: library page: %w", err)
		}
		if *n != last {
			p.Cards = append(p.Cards, LibraryCard{WorkID: it.WorkID})
			last = *n
		}
		c := &p.Cards[len(p.Cards)-1]
		c.Items = append(c.Items, it)
	}
	if err := rows.Err(); err != nil {
		return LibraryPage{}, fmt.Errorf("store: library page: %w", err)
	}
	return p, nil
}
