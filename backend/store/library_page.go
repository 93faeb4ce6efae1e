package store

import (
	"context"
	"fmt"
	"math"
	"slices"

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
	// LibrarySortState is by reading state (ReadingStates' order), then
	// the library's order.
	LibrarySortState = "state"
	// LibrarySortUnread is by how many chapters are unread (Latest minus
	// Progress, a Work's in Work numbers), most first; cards with no New
	// Chapter after them, then the library's order.
	LibrarySortUnread = "unread"
	// LibrarySortRead is by when the Reader last read the story (the
	// latest Progress read_at of the card's bookmarks), newest first;
	// never read last, then the library's order.
	LibrarySortRead = "last_read"
)

// librarySorts is every LibrarySort.
var librarySorts = []string{LibrarySortNew, LibrarySortUpdated, LibrarySortTitle, LibrarySortState, LibrarySortUnread, LibrarySortRead}

// ValidLibrarySort reports whether sort is one of the library's sorts.
func ValidLibrarySort(sort string) bool { return slices.Contains(librarySorts, sort) }

// LibraryQuery is what one library page asks: its filters, its sort and
// which page of PerPage cards.
type LibraryQuery struct {
	Site    string // only cards with a bookmark on this Site; "" for all
	Text    string // only cards whose title, a member's title or a member's "site id" holds it, case folded; "" for all
	OnlyNew bool   // only cards with New Chapters
	State   string // only cards in this reading state (ValidState); "" for all
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
// A bookmark's card is the Work it is in for the Reader (seriesWorkJoins),
// else its own. A Work's New, title, Latest date and text match are the
// Work's (workFactsSQL), over every member the Reader sees
// (readerMembersSQL: those they do not bookmark, their own pending hand
// links), as ReaderWorks reads them. The members they bookmark come with
// their numbers from mine, and only the others (more) are looked up: at
// 2,000 bookmarks in Works, looking every member up again cost the page
// half as much again. In the library's order a card stands
// by New, then by its newest Latest date (released, else seen; unknown
// last), then by the least of its bookmarks' titles, Sites and ids; the
// other sorts put their key first and break its ties the same way (a
// card's unread count is its Latest minus its Progress, a Work's in Work
// numbers; its last read the latest read_at of its bookmarks' Progress). Every
// row carries the page's counts, and a page with no card is one row of
// counts alone (the card number n is NULL).
//
// Named arguments: @reader, @site (the Site filter), @text (the text
// filter), @only_new, @sort, @page and @per_page (cards a page).
var libraryPageSQL = `
	WITH mine AS (
		SELECT b.site, b.series_id, ` + seriesWorkSQL + ` AS work_id, ` + seriesOffSQL + ` AS off,
			s.title, s.latest_seen_at, coalesce(s.latest_released_at, s.latest_seen_at) AS d, s.latest_number, p.number, p.read_at,
			` + readingStateSQL + ` AS state, b.state_at
		FROM bookmarks b
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		LEFT JOIN progress p ON p.reader_id = b.reader_id AND p.site = b.site AND p.series_id = b.series_id` +
	seriesWorkJoins("b.site", "b.series_id") + statusJoin + `
		WHERE b.reader_id = @reader
	), more AS (
		SELECT * FROM (` + readerMembersSQL("@reader", "IN (SELECT work_id FROM mine)") + `) rm
		WHERE NOT EXISTS (SELECT 1 FROM mine WHERE mine.site = rm.site AND mine.series_id = rm.series_id)
	), w AS (
		` + workFactsSQL(`SELECT work_id, site, series_id, off, title, latest_seen_at, latest_number + off AS wl, number + off AS wp
			FROM mine WHERE work_id IS NOT NULL
			UNION ALL `+memberNumbersSQL("more"), textHit("title", "site", "series_id")) + `
	), cards AS (
		SELECT mine.work_id, min(mine.site) AS site, min(mine.series_id) AS series_id,
			CASE WHEN mine.work_id IS NULL THEN bool_or(` + newSQL("mine.latest_number", "mine.number") + `)
				ELSE bool_or(w.is_new) END AS is_new,
			CASE WHEN mine.work_id IS NULL THEN bool_or(` + textHit("mine.title", "mine.site", "mine.series_id") + `)
				ELSE bool_or(w.hit) END AS hit,
			bool_or(mine.site = @site) AS on_site, max(mine.d) AS d, min(mine.title) AS first_title,
			CASE WHEN mine.work_id IS NULL THEN min(mine.title) ELSE min(w.title) END AS title,
			CASE WHEN mine.work_id IS NULL THEN min(mine.latest_seen_at) ELSE min(w.appeared) END AS appeared,
			` + storyStateSQL("mine.state", "mine.state_at", "mine.site", "mine.series_id") + ` AS state,
			CASE WHEN mine.work_id IS NULL THEN max(mine.latest_number - mine.number) ELSE max(w.latest - w.progress) END AS unread,
			max(mine.read_at) AS read_at
		FROM mine LEFT JOIN w ON w.work_id = mine.work_id
		GROUP BY mine.work_id, CASE WHEN mine.work_id IS NULL THEN mine.site END,
			CASE WHEN mine.work_id IS NULL THEN mine.series_id END
	), kept AS (
		SELECT work_id, site, series_id, is_new, row_number() OVER (ORDER BY
				CASE WHEN @sort = '` + LibrarySortUpdated + `' THEN appeared END DESC NULLS LAST,
				CASE WHEN @sort = '` + LibrarySortTitle + `' THEN lower(title) END COLLATE "C",
				CASE WHEN @sort = '` + LibrarySortState + `' THEN array_position(@states::text[], state) END,
				CASE WHEN @sort = '` + LibrarySortUnread + `' AND is_new THEN unread END DESC NULLS LAST,
				CASE WHEN @sort = '` + LibrarySortRead + `' THEN read_at END DESC NULLS LAST,
				is_new DESC, d DESC NULLS LAST, first_title, site, series_id) AS n
		FROM cards
		WHERE (@site = '' OR on_site) AND hit AND (is_new OR NOT @only_new) AND (@state = '' OR state = @state)
	), t AS (
		SELECT total, new_count, sites, matched,
			least(@page::bigint, greatest(1, (matched + @per_page::bigint - 1) / @per_page::bigint)) AS page
		FROM (SELECT count(*) AS total, count(*) FILTER (WHERE is_new) AS new_count,
			(SELECT coalesce(array_agg(DISTINCT site ORDER BY site), '{}') FROM mine) AS sites,
			(SELECT count(*) FROM kept) AS matched FROM cards) t
	), shown AS (
		SELECT k.* FROM t JOIN kept k ON k.n > (t.page - 1) * @per_page::bigint AND k.n <= t.page * @per_page::bigint
	)
	SELECT t.total, t.new_count, t.sites, t.matched, t.page, x.*
	FROM t LEFT JOIN (
		SELECT sh.n, coalesce(s.latest_released_at, s.latest_seen_at) AS d,
			` + libraryItemColumns("sh.is_new", "sh.work_id") + `
		FROM (SELECT n, is_new, work_id, site, series_id FROM shown WHERE work_id IS NULL
			UNION ALL
			SELECT sh.n, sh.is_new, sh.work_id, mine.site, mine.series_id FROM shown sh JOIN mine ON mine.work_id = sh.work_id) sh
		JOIN bookmarks b ON b.reader_id = @reader AND b.site = sh.site AND b.series_id = sh.series_id` + libraryItemJoins + `
	) x ON true
	ORDER BY x.n, x.d DESC NULLS LAST, x.title, x.site, x.series_id`

// textHit is the text filter (@text, "" for none) on one Series: its
// title or its "site id" holds the text, case folded.
func textHit(title, site, seriesID string) string {
	return `(@text = '' OR strpos(lower(` + title + `), lower(@text)) > 0 OR strpos(lower(` + site + ` || ' ' || ` + seriesID + `), lower(@text)) > 0)`
}

// LibraryPage returns one page of the Reader's library (q): its cards,
// sorted and filtered, with the counts around them.
func (s *Store) LibraryPage(ctx context.Context, readerID int64, q LibraryQuery) (LibraryPage, error) {
	if !ValidLibrarySort(q.Sort) {
		q.Sort = LibrarySortNew
	}
	q.Page, q.PerPage = min(max(q.Page, 1), math.MaxInt32), min(max(q.PerPage, 1), math.MaxInt32)
	// A filter comes from a URL: it is cleaned as stored text is (invalid
	// UTF-8 becomes U+FFFD, control bytes go), so text PostgreSQL would
	// refuse is looked for as a stored title would hold it, not an error.
	q.Site, q.Text = safetext.Line(q.Site), safetext.Line(q.Text)
	if !ValidState(q.State) {
		q.State = ""
	}
	rows, err := s.pool.Query(ctx, libraryPageSQL, namedArgs{"reader": readerID, "site": q.Site, "text": q.Text,
		"only_new": q.OnlyNew, "sort": q.Sort, "page": q.Page, "per_page": q.PerPage,
		"state": q.State, "states": ReadingStates})
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
