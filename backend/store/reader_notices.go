package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Outcomes of an owed notice (reader_notices.outcome).
const (
	NoticeSent     = "sent"      // a Digest took it
	NoticeCaughtUp = "caught_up" // the Reader's Progress reached the number first
	NoticeOff      = "off"       // the bookmark was muted before the send
)

// OwedNotice is one owed notice with what the send-time rules need.
type OwedNotice struct {
	Site         string
	SeriesID     string
	SeriesTitle  string
	Number       string // decimal string
	ChapterTitle string
	URL          string
	SeenAt       time.Time
	Mode         string // the bookmark's notify mode now
	Pile         int
	PileDays     int
	CaughtUp     bool // Progress is at or past the number
}

// LateSite is a reason chapters of a Reader's bookmarks may be late: a
// Lane paused, refusing or browser_down, or one Series failing (then
// SeriesID and Title name it).
type LateSite struct {
	Site     string
	State    string // paused, refusing, browser_down, failing, tracker_reconnect, outlet_stopped
	Since    time.Time
	SeriesID string
	Title    string
}

// DigestInput is everything the digest rules decide one Reader's owed
// notices from, read inside the claiming transaction.
type DigestInput struct {
	Reader   Reader
	Settings NotifySettings
	Push     []string // the endpoints of the Reader's push subscriptions
	Stopped  []string // the outlets a receiver refused for good (StopOutlet)
	Owed     []OwedNotice
	Late     []LateSite
	// Offers are "follow on {Site} instead" offers not told yet
	// (works_offers.go); a plan with deliveries tells them, once.
	Offers []FollowOffer
	// Status are the status changes of stories the Reader follows not told
	// yet (status.go); a plan tells them once (DigestPlan.StatusTold).
	Status []StatusLine
}

// NewDelivery is one Digest to one outlet, to be written with its payload.
type NewDelivery struct {
	// WebhookID is the delivery's id for receivers: 128 random bits
	// (NewWebhookID), never the row id, which is unique in one database
	// only. Empty: NewWebhookID makes one.
	WebhookID string
	Outlet    string
	Target    string
	Payload   []byte // JSON
	FirstSeen time.Time
}

// DigestPlan is what the rules decided: an outcome per owed notice it
// settles (keyed by index into DigestInput.Owed; the rest stay owed) and
// the deliveries to write.
type DigestPlan struct {
	Outcomes   map[int]string
	Deliveries []NewDelivery
	// StatusTold settles DigestInput.Status: the Digest carried them.
	StatusTold bool
}

// readyReaders picks Readers with at least one owed notice ready to send:
// caught up or muted (to settle), or of an each bookmark, or of a pile
// bookmark whose pile reached N unread or D days; and whose first ready
// notice is older than their digest window. Each Reader row is locked
// (SKIP LOCKED), so concurrent senders split the Readers and never make two
// Digests of one notice.
var readyReaders = `
	WITH owed AS (
		SELECT n.reader_id, n.seen_at, b.notify_mode, b.notify_pile, b.notify_pile_days,
			` + noticeCaughtSQL + ` AS caught,
			count(*) FILTER (WHERE NOT ` + noticeCaughtSQL + `)
				OVER (PARTITION BY n.reader_id, n.site, n.series_id) AS held,
			min(n.seen_at) FILTER (WHERE NOT ` + noticeCaughtSQL + `)
				OVER (PARTITION BY n.reader_id, n.site, n.series_id) AS first_held
		FROM reader_notices n
		JOIN bookmarks b ON b.reader_id = n.reader_id AND b.site = n.site AND b.series_id = n.series_id
		LEFT JOIN progress p ON p.reader_id = n.reader_id AND p.site = n.site AND p.series_id = n.series_id` + noticeWorkProgress + `
		WHERE n.done_at IS NULL AND ` + noticeNotHeldSQL + `
	), ready AS (
		SELECT reader_id, min(first) AS first FROM (
			SELECT reader_id, seen_at AS first FROM owed
			WHERE caught OR notify_mode <> 'pile' OR held >= notify_pile
				OR first_held <= $1::timestamptz - notify_pile_days * interval '1 day'
			UNION ALL ` + statusReadySQL + `) x
		GROUP BY reader_id
	)
	SELECT r.id FROM readers r
	JOIN ready ON ready.reader_id = r.id
	LEFT JOIN reader_notify rn ON rn.reader_id = r.id
	WHERE ready.first <= $1::timestamptz - coalesce(rn.digest_s, 900) * interval '1 second'
	ORDER BY r.id LIMIT $2
	FOR UPDATE OF r SKIP LOCKED`

// noticeNotHeldSQL leaves out an owed notice n still held for a
// preferred Site ($1 is now in the statements using it).
const noticeNotHeldSQL = `(n.held_until IS NULL OR n.held_until <= $1::timestamptz)`

// owedOf reads the claimed Readers' owed notices ready to be judged
// ($2 the Readers, $1 now: a notice held for a preferred Site waits).
var owedOf = `
	SELECT n.reader_id, n.site, n.series_id, s.title, n.number::text, e.title, e.url, n.seen_at,
		b.notify_mode, b.notify_pile, b.notify_pile_days, ` + noticeCaughtSQL + `
	FROM reader_notices n
	JOIN chapter_events e ON e.id = n.event_id
	JOIN series s ON s.site = n.site AND s.series_id = n.series_id
	JOIN bookmarks b ON b.reader_id = n.reader_id AND b.site = n.site AND b.series_id = n.series_id
	LEFT JOIN progress p ON p.reader_id = n.reader_id AND p.site = n.site AND p.series_id = n.series_id` + noticeWorkProgress + `
	WHERE n.reader_id = ANY($2) AND n.done_at IS NULL AND ` + noticeNotHeldSQL + `
	ORDER BY n.reader_id, n.seen_at, n.site, n.series_id, n.number`

// lateOf lists why chapters of the Readers' bookmarks may be late: their
// Sites' Lanes paused or refusing, the latest pass skipped as
// browser_down, and their failing Series (at most 10 per Reader); and a
// tracker whose token was refused (tracker_reconnect, its name as the
// site): their pushes wait for a new token; and an outlet its receiver
// refused for good (outlet_stopped, the outlet as the site, the reason as
// the title).
const lateOf = `
	WITH mine AS (SELECT DISTINCT reader_id, site FROM bookmarks WHERE reader_id = ANY($1)),
	sites AS (SELECT DISTINCT site FROM mine),
	down AS (
		SELECT l.site, CASE WHEN l.paused_until > $2 THEN 'paused' ELSE 'refusing' END AS state, l.updated_at AS since
		FROM poll_lanes l JOIN sites USING (site)
		WHERE l.paused_until > $2 OR l.refuse_until > $2
		UNION ALL
		SELECT p.site, 'browser_down', p.started_at
		FROM sites, LATERAL (SELECT site, skip, started_at FROM poll_passes
			WHERE poll_passes.site = sites.site ORDER BY started_at DESC LIMIT 1) p
		WHERE p.skip = 'browser_down'
	)
	SELECT mine.reader_id, down.site, down.state, down.since, '', '' FROM mine JOIN down USING (site)
	UNION ALL
	SELECT reader_id, site, 'failing', failing_since, series_id, title FROM (
		SELECT b.reader_id, f.site, f.failing_since, f.series_id, s.title,
			row_number() OVER (PARTITION BY b.reader_id ORDER BY f.failing_since, f.site, f.series_id) AS k
		FROM bookmarks b
		JOIN poll_failures f ON f.site = b.site AND f.series_id = b.series_id
		JOIN series s ON s.site = b.site AND s.series_id = b.series_id
		WHERE b.reader_id = ANY($1)) x
	WHERE k <= 10
	UNION ALL
	SELECT reader_id, service, 'tracker_reconnect', updated_at, '', '' FROM tracker_accounts
	WHERE reader_id = ANY($1) AND state = 'reconnect' AND push
	UNION ALL
	SELECT reader_id, outlet, 'outlet_stopped', stopped_at, '', last_error FROM notify_outlets
	WHERE reader_id = ANY($1) AND stopped_at IS NOT NULL`

// MakeDigests claims up to limit Readers whose owed notices are ready,
// hands each Reader's facts to decide (which must do no I/O: it runs inside
// the transaction) and writes its plan: outcomes on the notices and the
// deliveries. It returns how many Readers it planned for. Two senders on
// one database never claim the same Reader at once.
func (s *Store) MakeDigests(ctx context.Context, now time.Time, limit int, decide func(DigestInput) DigestPlan) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: make digests: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit it is a no-op
	ids, err := collectIDs(ctx, tx, readyReaders, now, limit)
	if err != nil {
		return 0, fmt.Errorf("store: make digests: %w", err)
	}
	ins, err := digestInputs(ctx, tx, ids, now)
	if err != nil {
		return 0, fmt.Errorf("store: make digests: %w", err)
	}
	batch := &pgx.Batch{}
	for _, in := range ins {
		queuePlan(batch, in, decide(in), now)
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return 0, fmt.Errorf("store: make digests: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("store: make digests: %w", err)
	}
	return len(ids), nil
}

func collectIDs(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]int64, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// digestInputs reads the claimed Readers' facts in eight statements,
// whatever their number.
func digestInputs(ctx context.Context, tx pgx.Tx, ids []int64, now time.Time) ([]DigestInput, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	at := map[int64]*DigestInput{}
	out := make([]DigestInput, len(ids))
	for i, id := range ids {
		out[i] = DigestInput{Settings: NotifySettings{ReaderID: id, DigestS: DefaultDigestS}}
		at[id] = &out[i]
	}
	each := func(q string, scan func(pgx.Rows) error, args ...any) error {
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	err := each(`SELECT `+readerColumns+` FROM readers WHERE id = ANY($1)`, func(r pgx.Rows) error {
		rd, err := scanReader(r)
		at[rd.ID].Reader = rd
		return err
	}, ids)
	if err != nil {
		return nil, err
	}
	err = each(`SELECT reader_id, digest_s, discord, ntfy_url, webhook_url, webhook_secret, feed_nonce
		FROM reader_notify WHERE reader_id = ANY($1)`, func(r pgx.Rows) error {
		var n NotifySettings
		err := r.Scan(&n.ReaderID, &n.DigestS, &n.Discord, &n.NtfyURL, &n.WebhookURL, &n.WebhookSecret, &n.FeedNonce)
		at[n.ReaderID].Settings = n
		return err
	}, ids)
	if err != nil {
		return nil, err
	}
	err = each(`SELECT reader_id, endpoint FROM push_subscriptions WHERE reader_id = ANY($1) ORDER BY id`, func(r pgx.Rows) error {
		var id int64
		var e string
		err := r.Scan(&id, &e)
		at[id].Push = append(at[id].Push, e)
		return err
	}, ids)
	if err != nil {
		return nil, err
	}
	stopped, err := collectStopped(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	for id, outs := range stopped {
		at[id].Stopped = outs
	}
	err = each(owedOf, func(r pgx.Rows) error {
		var id int64
		var o OwedNotice
		err := r.Scan(&id, &o.Site, &o.SeriesID, &o.SeriesTitle, &o.Number, &o.ChapterTitle, &o.URL, &o.SeenAt, &o.Mode, &o.Pile, &o.PileDays, &o.CaughtUp)
		at[id].Owed = append(at[id].Owed, o)
		return err
	}, now, ids)
	if err != nil {
		return nil, err
	}
	err = each(lateOf, func(r pgx.Rows) error {
		var id int64
		var l LateSite
		err := r.Scan(&id, &l.Site, &l.State, &l.Since, &l.SeriesID, &l.Title)
		at[id].Late = append(at[id].Late, l)
		return err
	}, ids, now)
	if err != nil {
		return nil, err
	}
	err = each(offersOf, func(r pgx.Rows) error {
		var id int64
		var o FollowOffer
		err := r.Scan(&id, &o.WorkID, &o.Site, &o.SeriesID, &o.Title, &o.Since, &o.ToSite, &o.ToSeriesID, &o.ToURL)
		at[id].Offers = append(at[id].Offers, o)
		return err
	}, ids, now.Add(-FailingShownAfter))
	if err != nil {
		return nil, err
	}
	err = each(statusOf, func(r pgx.Rows) error {
		var id int64
		var l StatusLine
		err := r.Scan(&id, &l.ChangeID, &l.WorkID, &l.Site, &l.SeriesID, &l.Title, &l.Status, &l.Was, &l.FinalChapter, &l.ChangedAt)
		at[id].Status = append(at[id].Status, l)
		return err
	}, ids)
	return out, err
}

// queuePlan queues the writes of one Reader's plan on the batch.
func queuePlan(b *pgx.Batch, in DigestInput, p DigestPlan, now time.Time) {
	for i, outcome := range p.Outcomes {
		o := in.Owed[i]
		b.Queue(`UPDATE reader_notices SET done_at = $5, outcome = $6
			WHERE reader_id = $1 AND site = $2 AND series_id = $3 AND number = $4::numeric AND done_at IS NULL`,
			in.Reader.ID, o.Site, o.SeriesID, o.Number, now, outcome)
	}
	if len(p.Deliveries) > 0 {
		queueOffersTold(b, in.Reader.ID, in.Offers, now)
	}
	if p.StatusTold {
		queueStatusTold(b, in.Reader.ID, in.Status, now)
	}
	queueDeliveries(b, in.Reader.ID, p.Deliveries, now)
}

// queueDeliveries queues the inserts of a Reader's new deliveries.
func queueDeliveries(b *pgx.Batch, readerID int64, ds []NewDelivery, now time.Time) {
	for _, d := range ds {
		if d.WebhookID == "" {
			d.WebhookID = NewWebhookID()
		}
		b.Queue(`INSERT INTO notice_deliveries
			(reader_id, outlet, target, payload, first_seen, created_at, next_at, webhook_id)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
			readerID, d.Outlet, d.Target, d.Payload, d.FirstSeen, now, d.WebhookID)
	}
}

// NewWebhookID is a delivery's webhook-id: "msg_" and 128 bits from
// crypto/rand in hex, so no two servers or databases ever share one.
func NewWebhookID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return "msg_" + hex.EncodeToString(b)
}

// NoticeCounts are the Owner's totals of Reader notices.
type NoticeCounts struct {
	Owed    int // owed notices not yet settled
	Sent24h int // deliveries sent in the last 24 h
}

// CountNotices returns the owed notices and the deliveries sent since
// since.
func (s *Store) CountNotices(ctx context.Context, since time.Time) (NoticeCounts, error) {
	var c NoticeCounts
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM reader_notices WHERE done_at IS NULL),
		(SELECT count(*) FROM notice_deliveries WHERE sent_at >= $1)`, since).Scan(&c.Owed, &c.Sent24h)
	if err != nil {
		return c, fmt.Errorf("store: count notices: %w", err)
	}
	return c, nil
}

// AnalyzeNotices refreshes the planner's statistics of the notice tables.
// A fan-out to thousands of Readers can grow reader_notices faster than
// autovacuum analyzes it, and with stale statistics the claim may join
// bookmarks through the Series index (every bookmark of a popular Series
// per notice) instead of the primary key.
func (s *Store) AnalyzeNotices(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `ANALYZE reader_notices, notice_deliveries`); err != nil {
		return fmt.Errorf("store: analyze notices: %w", err)
	}
	return nil
}
