package phonesync_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/phonesync"
	"mangabookmark/backend/phonesync/merge"
	"mangabookmark/backend/phonesync/syncclient"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

const testTokenKey = "0123456789abcdef0123456789abcdef-sync-test-key"

// MangaPill as a backup names it: the extension's name and its source id
// (docs/sources.md ("Phone sync") §4: MD5 of "mangapill/en/1").
const (
	pillName   = "MangaPill"
	pillSource = int64(8448310129093543312)
)

// clock is the tests' time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is the real API server with the real token service and phone sync
// over a fresh database.
type env struct {
	t     testing.TB
	st    *store.Store
	auth  *auth.Service
	ps    *phonesync.Service
	v2    *merge.Engine
	reg   *sites.Registry
	srv   *httptest.Server
	clock *clock
}

func newEnv(t testing.TB, opts ...func(*phonesync.Config)) *env {
	t.Helper()
	st := dbtest.New(t)
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, reg: reg, clock: &clock{now: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)}}
	e.auth, err = auth.New(auth.Config{Store: st, TokenKey: []byte(testTokenKey), Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	cfg := phonesync.Config{Store: st, Sites: reg, TokenKey: []byte(testTokenKey), Now: e.clock.Now}
	for _, o := range opts {
		o(&cfg)
	}
	e.ps, err = phonesync.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crypt, err := merge.NewCrypt([]byte(testTokenKey))
	if err != nil {
		t.Fatal(err)
	}
	if e.v2, err = merge.New(st, crypt, e.ps); err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Config{Store: st, Sites: reg, Auth: e.auth, PhoneSync: e.ps, SyncV2: e.v2, Now: e.clock.Now,
		BaseURL: "https://mb.example.org", NoLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(srv)
	t.Cleanup(e.srv.Close)
	return e
}

// noPace lets a test upload as fast as it likes.
func noPace(c *phonesync.Config) { c.Pace, c.Burst = time.Nanosecond, 1000000 }

// reader mints an API token for a new Reader and returns it with the
// Reader's id.
func (e *env) reader(discordID string) (string, int64) {
	e.t.Helper()
	tok, row, err := e.auth.MintTokenRow(context.Background(), discordID, "reader "+discordID, "test")
	if err != nil {
		e.t.Fatal(err)
	}
	return tok, row.ReaderID
}

// reply is what a test reads of an answer: its status and headers (call
// has read and closed the body, which it returns beside).
type reply struct {
	StatusCode int
	Header     http.Header
}

// call sends one request; auth is "Bearer x" for Authorization, else an
// X-API-Token value ("" for none).
func (e *env) call(method, path, bearer, key string, body io.Reader, hdr map[string]string) (*reply, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	if key != "" {
		req.Header.Set("X-API-Token", key)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &reply{StatusCode: resp.StatusCode, Header: resp.Header}, b
}

// syncKey makes (or rotates) the Reader's sync key through the API.
func (e *env) syncKey(token string) string {
	e.t.Helper()
	resp, body := e.call(http.MethodPost, "/api/me/sync", token, "", nil, nil)
	var k struct{ Host, Key string }
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &k) != nil || k.Key == "" {
		e.t.Fatalf("POST /api/me/sync: %d %s", resp.StatusCode, body)
	}
	if k.Host != "https://mb.example.org" {
		e.t.Fatalf("host %q", k.Host)
	}
	return k.Key
}

// state is GET /api/me/sync.
func (e *env) state(token string) map[string]any {
	e.t.Helper()
	resp, body := e.call(http.MethodGet, "/api/me/sync", token, "", nil, nil)
	var out map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &out) != nil {
		e.t.Fatalf("GET /api/me/sync: %d %s", resp.StatusCode, body)
	}
	return out
}

// phone is a SyncYomi v1 client holding lib.
func (e *env) phone(key string, lib tachibktest.Backup, gz bool, device string) *syncclient.V1 {
	e.t.Helper()
	l, err := syncclient.Decode(lib.Proto())
	if err != nil {
		e.t.Fatal(err)
	}
	return &syncclient.V1{Host: e.srv.URL, Key: key, Gzip: gz, DeviceID: device, DeviceName: strings.ToUpper(device),
		Now: e.clock.Now, Local: l}
}

// sync runs one sync and fails the test on an error.
func (e *env) sync(p *syncclient.V1) syncclient.Outcome {
	e.t.Helper()
	out, err := p.Sync(context.Background())
	if err != nil {
		e.t.Fatalf("sync: %v", err)
	}
	return out
}

// series is the Series a MangaPill manga URL stands for.
func (e *env) series(mangaURL string) sites.Ref {
	e.t.Helper()
	ref, err := e.reg.Canonicalize("https://mangapill.com" + mangaURL)
	if err != nil {
		e.t.Fatal(err)
	}
	return ref
}

// progress is the Reader's Progress number on ref ("" for none) and its
// source.
func (e *env) progress(readerID int64, ref sites.Ref) (string, string) {
	e.t.Helper()
	var n, src string
	err := e.st.Pool().QueryRow(context.Background(), `SELECT number::text, source FROM progress
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, readerID, ref.Site, ref.SeriesID).Scan(&n, &src)
	if err != nil {
		return "", ""
	}
	return n, src
}

// readElsewhere is a read the userscript or the web reports.
func (e *env) readElsewhere(readerID int64, ref sites.Ref, number string) {
	e.t.Helper()
	res, err := e.st.ApplyReads(context.Background(), []store.Read{{ReaderID: readerID, Site: ref.Site, SeriesID: ref.SeriesID,
		SeriesURL: ref.URL, Number: number, URL: ref.URL + "/chapter-" + number, ReadAt: e.clock.Now()}})
	if err != nil || !res[0].Moved {
		e.t.Fatalf("read elsewhere: %v %+v", err, res)
	}
}

// pillManga is a MangaPill manga with chapters 1..n, the first read ones
// read (version 1, modified at the clock's time).
func pillManga(id string, n, read int, at int64) tachibktest.Manga {
	m := tachibktest.Manga{Source: pillSource, URL: "/manga/" + id + "/title-" + id, Title: "Title " + id, LastModifiedAt: at, Version: 1}
	for i := 1; i <= n; i++ {
		m.Chapters = append(m.Chapters, tachibktest.Chapter{URL: "/chapters/" + id + "-" + strconv.Itoa(i), Name: "Chapter " + strconv.Itoa(i),
			Read: i <= read, Number: float32(i), DateFetch: at * 1000, LastModifiedAt: at, Version: 1})
	}
	return m
}

// pillLibrary is a backup of manga with MangaPill in its source list.
func pillLibrary(manga ...tachibktest.Manga) tachibktest.Backup {
	return tachibktest.Backup{Manga: manga, Sources: []tachibktest.Source{{Name: pillName, ID: pillSource}}}
}
