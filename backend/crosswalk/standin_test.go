package crosswalk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/crosswalk"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// fixture is testdata/source_anilist_30003.json (its README says whose
// shape it follows): the answer for anilist 30003, and for the same
// story's other ids (my-anime-list 3, kitsu 12, manga-updates ktr1ti2).
func fixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/source_anilist_30003.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// standin is a MangaBaka stand-in: it answers the routes in answers
// (path to status and body; anything else 404, as MangaBaka documents
// for an id it does not know) and counts what it was asked.
type standin struct {
	srv *httptest.Server

	mu      sync.Mutex
	answers map[string]answer
	asked   []string
}

type answer struct {
	status int
	body   string
	header map[string]string
}

func newStandin(t testing.TB, answers map[string]answer) *standin {
	t.Helper()
	s := &standin{answers: answers}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.Method+" "+r.URL.Path)
		a, ok := s.answers[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":404,"message":"Not found"}`))
			return
		}
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *standin) set(path string, a answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[path] = a
}

func (s *standin) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

// world is a store, a stand-in and a Worker on a fake clock.
type world struct {
	t     *testing.T
	ctx   context.Context
	st    *store.Store
	mb    *standin
	clock *lanestest.FakeClock
	w     *crosswalk.Worker
}

var t0 = time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)

func newWorld(t *testing.T, perMinute int) *world {
	t.Helper()
	x := &world{t: t, ctx: context.Background(), st: dbtest.New(t), clock: lanestest.NewFakeClock(t0)}
	f := fixture(t)
	x.mb = newStandin(t, map[string]answer{
		"/v1/source/anilist/30003":         {status: 200, body: f},
		"/v1/source/my-anime-list/3":       {status: 200, body: f},
		"/v1/source/kitsu/12":              {status: 200, body: f},
		"/v1/source/manga-updates/ktr1ti2": {status: 200, body: f},
	})
	w, err := crosswalk.New(crosswalk.Config{Store: x.st, Client: crosswalk.NewClient(x.mb.srv.URL, "test", nil),
		Clock: x.clock, PerMinute: perMinute})
	if err != nil {
		t.Fatal(err)
	}
	x.w = w
	x.exec(`INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann'), (2, 'bob', 'Bob')`)
	return x
}

func (x *world) exec(sql string, args ...any) {
	x.t.Helper()
	if _, err := x.st.Pool().Exec(x.ctx, sql, args...); err != nil {
		x.t.Fatal(err)
	}
}

// read records a good read of a Series whose page carries ids (a Site's
// word), bookmarking it for reader first.
func (x *world) read(reader int64, site, id string, ids ...store.ExternalID) {
	x.t.Helper()
	if _, err := x.st.AddBookmark(x.ctx, reader, site, id, "https://"+site+".example/"+id); err != nil {
		x.t.Fatal(err)
	}
	if _, err := x.st.RecordOK(x.ctx, site, id, store.ReadFacts{Title: "T " + id, Number: "10", IDs: ids}, x.clock.Now()); err != nil {
		x.t.Fatal(err)
	}
}

func (x *world) pass() crosswalk.Stats {
	x.t.Helper()
	st, err := x.w.RunOnce(x.ctx)
	if err != nil {
		x.t.Fatal(err)
	}
	return st
}

// ids lists a Series' ids as kind:value/source(/reader), sorted.
func (x *world) ids(site, id string) string {
	x.t.Helper()
	var s string
	err := x.st.Pool().QueryRow(x.ctx, `SELECT coalesce(string_agg(kind || ':' || value || '/' || source ||
			coalesce('/' || reader_id, ''), ' ' ORDER BY kind, source), '') FROM series_ids WHERE site = $1 AND series_id = $2`,
		site, id).Scan(&s)
	if err != nil {
		x.t.Fatal(err)
	}
	return s
}

func (x *world) workOf(site, id string) int64 {
	x.t.Helper()
	w, err := x.st.WorkOf(x.ctx, site, id)
	if err != nil {
		return 0
	}
	return w
}

func id(kind, value string) store.ExternalID { return store.ExternalID{Kind: kind, Value: value} }

// ktr1ti2 is the fixture's MangaUpdates URL id as the API number.
const ktr1ti2 = "45334600346"
