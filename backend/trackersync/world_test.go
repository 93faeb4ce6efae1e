package trackersync_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackers/anilist/anilisttest"
	"mangabookmark/backend/trackersync"
)

// tokenKey is a TOKEN_KEY for the tests.
var tokenKey = []byte(strings.Repeat("t", 32))

// jumpClock is a clock whose Sleep moves time on at once: the limiter's
// waits (a 429's Retry-After) cost no wall time and are added up in slept.
type jumpClock struct {
	mu    sync.Mutex
	now   time.Time
	slept time.Duration
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *jumpClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept += d
	return ctx.Err()
}

func (c *jumpClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *jumpClock) Slept() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slept
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// world is one database, one AniList stand-in and a clock.
type world struct {
	t      testing.TB
	ctx    context.Context
	st     *store.Store
	al     *anilisttest.Server
	origin string
	clock  *jumpClock
	limit  *trackers.Limiter
	logs   *syncBuffer
	// observe, when set, is told of each request the stand-in answers
	// (anilisttest.Config.Observe).
	observe atomic.Pointer[func(kind, user string)]
}

func newWorld(t *testing.T) *world {
	t.Helper()
	t.Parallel()
	return newWorldTB(t)
}

func newWorldTB(t testing.TB) *world {
	t.Helper()
	clock := &jumpClock{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
	w := &world{t: t, ctx: context.Background(), clock: clock, logs: &syncBuffer{}}
	w.al = anilisttest.New(anilisttest.Config{Now: clock.Now, ClientSecret: "secret", RedirectURL: "https://mb.test/trackers/anilist/callback",
		Unchunked: 1000, // a list asked without chunks comes back cut
		Observe: func(kind, user string) {
			if f := w.observe.Load(); f != nil {
				(*f)(kind, user)
			}
		}})
	srv := httptest.NewServer(w.al)
	t.Cleanup(srv.Close)
	limit, err := trackers.NewLimiter(trackers.LimiterConfig{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	w.st, w.origin, w.limit = dbtest.New(t), srv.URL, limit
	return w
}

// service builds a Service (one "process") over the world's database and
// stand-in, logging into w.logs at debug level.
func (w *world) service(owner string) *trackersync.Service {
	w.t.Helper()
	log := slog.New(slog.NewTextHandler(w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client, err := anilist.New(anilist.Config{Origin: w.origin, Limiter: w.limit, Log: log})
	if err != nil {
		w.t.Fatal(err)
	}
	sealer, err := trackers.NewSealer(tokenKey)
	if err != nil {
		w.t.Fatal(err)
	}
	svc, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: client, Sealer: sealer, Log: log,
		Now: w.clock.Now, Owner: owner})
	if err != nil {
		w.t.Fatal(err)
	}
	return svc
}

// reader makes a Reader.
func (w *world) reader(name string) int64 {
	w.t.Helper()
	r, err := w.st.UpsertReader(w.ctx, "discord-"+name, name, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

// series makes a Series (latest number, "" for none) carrying AniList id
// al ("" for none).
func (w *world) series(site, id, latest, al string) {
	w.t.Helper()
	storetest.Series(w.ctx, w.t, w.st, storetest.SeriesOpts{Site: site, ID: id, Title: "title " + id, LatestNumber: latest})
	if al != "" {
		if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{{Site: site, SeriesID: id,
			IDs: []store.ExternalID{{Kind: "al", Value: al, Source: store.IDFromSite}}}}); err != nil {
			w.t.Fatal(err)
		}
	}
}

// siteID gives a stored Series the AniList id al, as its Site's word.
func (w *world) siteID(site, id, al string) {
	w.t.Helper()
	if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{{Site: site, SeriesID: id,
		IDs: []store.ExternalID{{Kind: "al", Value: al, Source: store.IDFromSite}}}}); err != nil {
		w.t.Fatal(err)
	}
}

// bookmark bookmarks a Series with Progress number ("" for none).
func (w *world) bookmark(reader int64, site, id, number string) {
	w.t.Helper()
	storetest.Bookmarks(w.ctx, w.t, w.st, storetest.BookmarkOpts{ReaderID: reader, Site: site, SeriesID: id})
	if number != "" {
		w.read(reader, site, id, number)
	}
}

// read is a Reader's read through the store's progress path.
func (w *world) read(reader int64, site, id, number string) {
	w.t.Helper()
	if _, err := w.st.AdvanceProgress(w.ctx, reader, site, id, number, "", w.clock.Now()); err != nil {
		w.t.Fatal(err)
	}
}

// progress is the Reader's Progress number and source ("" when none).
func (w *world) progress(reader int64, site, id string) (number, source string) {
	w.t.Helper()
	err := w.st.Pool().QueryRow(w.ctx, `SELECT number::text, source FROM progress WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
		reader, site, id).Scan(&number, &source)
	if err != nil {
		return "", ""
	}
	return number, source
}

// account is the Reader's tracker row.
func (w *world) account(reader int64) store.TrackerAccount {
	w.t.Helper()
	a, err := w.st.TrackerAccount(w.ctx, reader, anilist.Name)
	if err != nil {
		w.t.Fatalf("tracker account: %v", err)
	}
	return a
}

// setUp saves a user name with pull on (and push, with a token).
func (w *world) setUp(svc *trackersync.Service, reader int64, user, token string) {
	w.t.Helper()
	if token != "" {
		w.al.AddToken(token, user)
		if err := svc.SetToken(w.ctx, reader, anilist.Name, token); err != nil {
			w.t.Fatalf("set token: %v", err)
		}
	}
	if err := svc.Save(w.ctx, reader, anilist.Name, user, true, token != ""); err != nil {
		w.t.Fatalf("save: %v", err)
	}
}

func (w *world) pull(svc *trackersync.Service) (pulled, moved int) {
	w.t.Helper()
	p, m, err := svc.PullOnce(w.ctx)
	if err != nil {
		w.t.Fatalf("pull: %v", err)
	}
	return p, m
}

func (w *world) push(svc *trackersync.Service) int {
	w.t.Helper()
	n, err := svc.PushOnce(w.ctx)
	if err != nil {
		w.t.Fatalf("push: %v", err)
	}
	return n
}

func entry(media string, progress int, status trackers.Status) trackers.Entry {
	return trackers.Entry{MediaID: media, Progress: progress, Status: status}
}
