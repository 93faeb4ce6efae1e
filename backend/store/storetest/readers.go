package storetest

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// ReaderOpts describe a Reader; DiscordID is required.
type ReaderOpts struct {
	DiscordID string
	Name      string // default ""
}

// Readers inserts Readers in one statement and returns their ids in the
// order given, failing the test on error.
func Readers(ctx context.Context, tb testing.TB, st *store.Store, os ...ReaderOpts) []int64 {
	tb.Helper()
	discord, name := make([]string, len(os)), make([]string, len(os))
	for i, o := range os {
		discord[i], name[i] = o.DiscordID, o.Name
	}
	rows, err := st.Pool().Query(ctx, `INSERT INTO readers (discord_id, name)
		SELECT d, n FROM unnest($1::text[], $2::text[]) AS x(d, n) RETURNING discord_id, id`, discord, name)
	if err != nil {
		tb.Fatalf("storetest: %d readers from %s: %v", len(os), first(discord), err)
	}
	defer rows.Close()
	byDiscord := map[string]int64{}
	for rows.Next() {
		var d string
		var id int64
		if err := rows.Scan(&d, &id); err != nil {
			tb.Fatalf("storetest: readers: %v", err)
		}
		byDiscord[d] = id
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("storetest: %d readers from %s: %v", len(os), first(discord), err)
	}
	ids := make([]int64, len(os))
	for i, d := range discord {
		ids[i] = byDiscord[d]
	}
	return ids
}

// BookmarkOpts describe a bookmark; ReaderID, Site and SeriesID are
// required and the Series must exist.
type BookmarkOpts struct {
	ReaderID       int64
	Site, SeriesID string
	CreatedAt      *time.Time // nil: the database's now()
	NotifyMode     string     // each, off or pile; default each
	Pile, PileDays int        // a pile's thresholds; default 3 and 7
}

// Bookmarks inserts bookmarks in one statement, failing the test on error.
func Bookmarks(ctx context.Context, tb testing.TB, st *store.Store, os ...BookmarkOpts) {
	tb.Helper()
	n := len(os)
	reader, site, id, mode := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	pile, days, created := make([]int32, n), make([]int32, n), make([]*time.Time, n)
	for i, o := range os {
		if o.NotifyMode == "" {
			o.NotifyMode = "each"
		}
		if o.Pile == 0 {
			o.Pile = 3
		}
		if o.PileDays == 0 {
			o.PileDays = 7
		}
		reader[i], site[i], id[i], mode[i] = o.ReaderID, o.Site, o.SeriesID, o.NotifyMode
		pile[i], days[i], created[i] = int32(o.Pile), int32(o.PileDays), o.CreatedAt
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO bookmarks (reader_id, site, series_id, created_at, notify_mode, notify_pile, notify_pile_days)
		SELECT r, s, i, coalesce(c, now()), m, p, d
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::int[], $7::int[]) AS x(r, s, i, c, m, p, d)`,
		reader, site, id, created, mode, pile, days); err != nil {
		tb.Fatalf("storetest: %d bookmarks from %s: %v", n, first(id), err)
	}
}

// BookmarkSet names bookmarks and what to change on them; a zero field is
// left as it is.
type BookmarkSet struct {
	ReaderID int64    // 0: every Reader
	Site     string   // "": every Site
	IDs      []string // nil: every Series

	CreatedAt      *time.Time
	NotifyMode     string // each, off or pile
	Pile, PileDays int
	AddedBy        string // reader, or read (a bookmark a read made)
}

// SetBookmarks changes the bookmarks o names, failing the test on error or
// when it names none.
func SetBookmarks(ctx context.Context, tb testing.TB, st *store.Store, o BookmarkSet) {
	tb.Helper()
	tag, err := st.Pool().Exec(ctx, `UPDATE bookmarks SET
			created_at = coalesce($4, created_at),
			notify_mode = coalesce(nullif($5, ''), notify_mode),
			notify_pile = coalesce(nullif($6::int, 0), notify_pile),
			notify_pile_days = coalesce(nullif($7::int, 0), notify_pile_days),
			added_by = coalesce(nullif($8, ''), added_by)
		WHERE ($1 = 0 OR reader_id = $1) AND ($2 = '' OR site = $2) AND ($3::text[] IS NULL OR series_id = ANY($3))`,
		o.ReaderID, o.Site, o.IDs, o.CreatedAt, o.NotifyMode, o.Pile, o.PileDays, o.AddedBy)
	if err != nil {
		tb.Fatalf("storetest: set bookmarks %d %s %v: %v", o.ReaderID, o.Site, o.IDs, err)
	}
	if tag.RowsAffected() == 0 {
		tb.Fatalf("storetest: set bookmarks %d %s %v: no bookmark matched", o.ReaderID, o.Site, o.IDs)
	}
}

// ProgressOpts describe a Reader's Progress on a bookmarked Series.
type ProgressOpts struct {
	ReaderID       int64
	Site, SeriesID string
	Number         string     // the furthest chapter read ("2")
	URL            string     // default ""
	ReadAt         *time.Time // nil: the database's now()
}

// Progress records Progress as it is, with none of the product's rules
// (past-latest, the bookmark cap), in one statement, failing the test on
// error. Each bookmark must exist.
func Progress(ctx context.Context, tb testing.TB, st *store.Store, os ...ProgressOpts) {
	tb.Helper()
	n := len(os)
	reader, site, id := make([]int64, n), make([]string, n), make([]string, n)
	number, url, read := make([]string, n), make([]string, n), make([]*time.Time, n)
	for i, o := range os {
		reader[i], site[i], id[i], number[i], url[i], read[i] = o.ReaderID, o.Site, o.SeriesID, o.Number, o.URL, o.ReadAt
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO progress (reader_id, site, series_id, number, url, read_at)
		SELECT r, s, i, n::numeric, u, coalesce(a, now())
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(r, s, i, n, u, a)`,
		reader, site, id, number, url, read); err != nil {
		tb.Fatalf("storetest: %d progress from %s: %v", n, first(id), err)
	}
}

// CoverOpts describe a stored cover image; the Series must exist.
type CoverOpts struct {
	Site, SeriesID string
	SourceURL      string    // default https://cdn.test/{site}/{id}
	ContentType    string    // default image/png
	Body           []byte    // default a PNG signature
	FetchedAt      time.Time // default now
}

// Cover stores cover images in one statement, failing the test on error.
func Cover(ctx context.Context, tb testing.TB, st *store.Store, os ...CoverOpts) {
	tb.Helper()
	n := len(os)
	site, id, src, ctype := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	body, fetched := make([][]byte, n), make([]time.Time, n)
	now := time.Now()
	for i, o := range os {
		if o.SourceURL == "" {
			o.SourceURL = "https://cdn.test/" + o.Site + "/" + o.SeriesID
		}
		if o.ContentType == "" {
			o.ContentType = "image/png"
		}
		if o.Body == nil {
			o.Body = []byte("\x89PNG")
		}
		if o.FetchedAt.IsZero() {
			o.FetchedAt = now
		}
		site[i], id[i], src[i], ctype[i], body[i], fetched[i] = o.Site, o.SeriesID, o.SourceURL, o.ContentType, o.Body, o.FetchedAt
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO covers (site, series_id, source_url, content_type, body, fetched_at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::timestamptz[])`,
		site, id, src, ctype, body, fetched); err != nil {
		tb.Fatalf("storetest: %d covers from %s/%s: %v", n, first(site), first(id), err)
	}
}
