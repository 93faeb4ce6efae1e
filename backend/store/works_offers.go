package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// A dying member is covered (docs/adr/0021-works-link-by-ids.md, "Follow
// instead"): a Reader whose only bookmark in a Work is a member failing
// for over a day is offered, once, to follow another member, with their
// Progress carried by number. The offer is told in the Reader's next
// Digest (work_offers.told_at) and stays on the Work until declined or
// accepted; a Reader and Work with an offer row in any state are never
// offered again.

// Offer states (work_offers.state).
const (
	OfferMade     = "made"
	OfferDeclined = "declined"
	OfferAccepted = "accepted"
)

// FollowOffer is one offer told in a Digest.
type FollowOffer struct {
	WorkID     int64
	Site       string // the failing member the Reader bookmarks
	SeriesID   string
	Title      string
	Since      time.Time // failing since
	ToSite     string    // the member offered
	ToSeriesID string
	ToURL      string
}

// offersOf lists, for the Readers $1 at $2, the offers not made yet: a
// Work where the Reader bookmarks exactly one member, failing for over a
// day ($2 less FailingShownAfter), with another member not failing so
// long; the other member offered is the one with the highest Latest in
// Work numbers.
var offersOf = `
	SELECT DISTINCT ON (b.reader_id, m.work_id) b.reader_id, m.work_id, m.site, m.series_id, s.title, f.failing_since,
		o.site, o.series_id, os.url
	FROM bookmarks b
	JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
	JOIN poll_failures f ON f.site = m.site AND f.series_id = m.series_id AND f.failing_since <= $2
	JOIN series s ON s.site = m.site AND s.series_id = m.series_id
	JOIN work_members o ON o.work_id = m.work_id AND (o.site, o.series_id) <> (m.site, m.series_id)
	JOIN series os ON os.site = o.site AND os.series_id = o.series_id
	WHERE b.reader_id = ANY($1)
		AND NOT EXISTS (SELECT 1 FROM poll_failures f2 WHERE f2.site = o.site AND f2.series_id = o.series_id
			AND f2.failing_since <= $2)
		AND NOT EXISTS (SELECT 1 FROM bookmarks b2 JOIN work_members m2 ON m2.site = b2.site AND m2.series_id = b2.series_id
			WHERE b2.reader_id = b.reader_id AND m2.work_id = m.work_id AND (m2.site, m2.series_id) <> (m.site, m.series_id))
		AND NOT EXISTS (SELECT 1 FROM work_offers wo WHERE wo.reader_id = b.reader_id AND wo.work_id = m.work_id)
	ORDER BY b.reader_id, m.work_id, os.latest_number + ` + memberOffSQL("b.reader_id", "o") + ` DESC NULLS LAST, o.site, o.series_id`

// queueOffersTold records the offers a Digest told (made and told now).
func queueOffersTold(b *pgx.Batch, readerID int64, offers []FollowOffer, now time.Time) {
	for _, o := range offers {
		b.Queue(`INSERT INTO work_offers (reader_id, work_id, site, series_id, to_site, to_series_id, made_at, told_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (reader_id, work_id) DO NOTHING`,
			readerID, o.WorkID, o.Site, o.SeriesID, o.ToSite, o.ToSeriesID, now)
	}
}

// DeclineFollow records that the Reader declines the Work's offer: it is
// not offered again. ErrNotFound when the Work offers them nothing now.
func (s *Store) DeclineFollow(ctx context.Context, readerID, workID int64, now time.Time) error {
	wk, err := s.ReaderWork(ctx, readerID, workID, now)
	if err != nil {
		return err
	}
	if wk.Offer == nil {
		return ErrNotFound
	}
	from := offerFrom(wk)
	_, err = s.pool.Exec(ctx, `INSERT INTO work_offers (reader_id, work_id, site, series_id, to_site, to_series_id, state, made_at, decided_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'declined', $7, $7)
		ON CONFLICT (reader_id, work_id) DO UPDATE SET state = 'declined', decided_at = $7`,
		readerID, workID, from.Site, from.SeriesID, wk.Offer.Site, wk.Offer.SeriesID, now)
	if err != nil {
		return fmt.Errorf("store: decline follow: %w", err)
	}
	return nil
}

// offerFrom is the member the Reader bookmarks in a Work (the first).
func offerFrom(wk Work) WorkMember {
	for _, m := range wk.Members {
		if m.Bookmarked {
			return m
		}
	}
	return WorkMember{}
}

// FollowInstead bookmarks member (site, seriesID) of a Work the Reader
// holds, with their Progress on the Work carried by number (the highest of
// their reads on any member, in Work numbers, less this member's offset;
// forward only), and records the Work's offer as accepted. ErrNotFound
// when the Work holds none of their bookmarks or the Series is no shared
// member of it; the Reader's bookmark limits apply (ErrBookmarkLimit).
func (s *Store) FollowInstead(ctx context.Context, readerID, workID int64, site, seriesID string, now time.Time) error {
	var refused error
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var url string
		var from *SeriesRef
		err := tx.QueryRow(ctx, `SELECT s.url FROM work_members m JOIN series s ON s.site = m.site AND s.series_id = m.series_id
			WHERE m.work_id = $1 AND m.site = $2 AND m.series_id = $3`, workID, site, seriesID).Scan(&url)
		if err != nil {
			return err
		}
		var fs, fid string
		err = tx.QueryRow(ctx, `SELECT b.site, b.series_id FROM bookmarks b
			JOIN work_members m ON m.site = b.site AND m.series_id = b.series_id
			WHERE b.reader_id = $1 AND m.work_id = $2 ORDER BY b.site, b.series_id LIMIT 1`, readerID, workID).Scan(&fs, &fid)
		if err != nil {
			return err
		}
		from = &SeriesRef{Site: fs, SeriesID: fid}
		adm, err := s.admitBookmarks(ctx, tx, readerID, addedByReader, []wantedBookmark{{Site: site, SeriesID: seriesID, URL: url}})
		if err != nil {
			return err
		}
		if adm[0].Refused != nil {
			refused = adm[0].Refused
			return refused
		}
		if _, err := tx.Exec(ctx, carryProgressSQL, readerID, workID, site, seriesID, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO work_offers (reader_id, work_id, site, series_id, to_site, to_series_id, state, made_at, decided_at)
			VALUES ($1, $2, $3, $4, $5, $6, 'accepted', $7, $7)
			ON CONFLICT (reader_id, work_id) DO UPDATE SET state = 'accepted', to_site = $5, to_series_id = $6, decided_at = $7`,
			readerID, workID, from.Site, from.SeriesID, site, seriesID, now)
		return err
	})
	if refused != nil && errors.Is(err, refused) {
		return refused
	}
	if err != nil {
		return notFound("follow instead", err)
	}
	return nil
}

// carryProgressSQL sets the Reader's Progress on member ($3, $4) of Work
// $2 to their Progress on the Work (the highest of their reads on any
// member plus its offset) less the member's offset, forward only; both
// offsets the Reader's own (memberOffSQL).
var carryProgressSQL = `
	INSERT INTO progress (reader_id, site, series_id, number, url, read_at)
	SELECT $1, $3, $4, c.number - ` + memberOffSQL("$1::bigint", "t") + `, '', $5
	FROM work_members t,
		LATERAL (SELECT max(p.number + ` + memberOffSQL("$1::bigint", "m") + `) AS number FROM work_members m
			JOIN progress p ON p.reader_id = $1 AND p.site = m.site AND p.series_id = m.series_id
			WHERE m.work_id = $2) c
	WHERE t.work_id = $2 AND t.site = $3 AND t.series_id = $4 AND c.number IS NOT NULL
	ON CONFLICT (reader_id, site, series_id) DO UPDATE SET number = excluded.number, read_at = excluded.read_at, updated_at = now()
		WHERE progress.number < excluded.number`
