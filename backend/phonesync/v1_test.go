package phonesync_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/phonesync/syncclient"
)

// TestV1FirstSyncThenTurns: a stable phone (raw body, no device id) syncs
// first (404, then a push with no If-Match), a second phone (gzip, device
// id) syncs its own library (200, merge, push with If-Match), the first
// takes its turn (200: the merged library), then a sync with nothing new
// is 304 and a push with the held ETag. Every manga of both phones ends on
// both, field by field.
func TestV1FirstSyncThenTurns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("200000000000000001")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	a := e.phone(key, pillLibrary(pillManga("1", 5, 2, at), tachibktest.Manga{Source: 77, URL: "/other/9", Title: "Elsewhere", LastModifiedAt: at, Fork: true}), false, "")
	// b's manga changed after a's first sync: the client keeps a manga
	// only one side holds when it changed after its last sync.
	b := e.phone(key, pillLibrary(pillManga("2", 3, 3, at+30)), true, "phone-b")

	if out := e.sync(a); out.Status != http.StatusNotFound || !out.Pushed {
		t.Fatalf("first sync of a: %+v", out)
	}
	resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != a.ETag || !bytes.Equal(body, a.Local.Proto()) {
		t.Fatalf("GET after a's push: %d etag %q (a holds %q), same bytes %v", resp.StatusCode, resp.Header.Get("ETag"), a.ETag, bytes.Equal(body, a.Local.Proto()))
	}
	if !strings.HasPrefix(a.ETag, "uuid=") || resp.Header.Get("Deprecation") != "true" || resp.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("etag %q, headers %v", a.ETag, resp.Header)
	}
	e.clock.Add(time.Minute)
	if out := e.sync(b); out.Status != http.StatusOK || !out.Pulled || !out.Pushed {
		t.Fatalf("first sync of b: %+v", out)
	}
	if len(b.Local.Manga) != 3 {
		t.Fatalf("b holds %d manga after the merge, want 3", len(b.Local.Manga))
	}
	e.clock.Add(time.Minute)
	if out := e.sync(a); out.Status != http.StatusOK || !out.Pushed {
		t.Fatalf("a's turn: %+v", out)
	}
	if !syncclient.Equal(a.Local, b.Local) {
		t.Fatal("a and b hold different libraries after taking turns")
	}
	e.clock.Add(time.Minute)
	if out := e.sync(a); out.Status != http.StatusNotModified || !out.Pushed {
		t.Fatalf("a with nothing new: %+v", out)
	}
	st := e.state(tok)
	devs, _ := st["devices"].([]any)
	if len(devs) != 2 {
		t.Fatalf("devices %v, want the stable phone and phone-b", st["devices"])
	}
}

// TestV1Conflict412AndRetry: a phone whose push races another phone's is
// answered 412 and gives up; its next sync pulls the other's library,
// merges and pushes.
func TestV1Conflict412AndRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("200000000000000002")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	a := e.phone(key, pillLibrary(pillManga("1", 2, 1, at)), false, "a")
	b := e.phone(key, pillLibrary(pillManga("2", 2, 1, at+30)), false, "b")
	e.sync(a)
	e.clock.Add(time.Minute)
	e.sync(b)
	e.clock.Add(time.Minute)
	// b pushes between a's pull and a's push.
	a.HTTP = &http.Client{Transport: beforePut{func() { e.sync(b) }}}
	out := e.sync(a)
	if !out.Refused || out.Pushed {
		t.Fatalf("a racing b: %+v, want 412", out)
	}
	a.HTTP = nil
	if out := e.sync(a); !out.Pushed || out.Status != http.StatusOK {
		t.Fatalf("a's retry: %+v", out)
	}
	if len(a.Local.Manga) != 2 {
		t.Fatalf("a holds %d manga", len(a.Local.Manga))
	}
	// If-Match when nothing is stored is 412 too.
	tok2, _ := e.reader("200000000000000003")
	key2 := e.syncKey(tok2)
	resp, _ := e.call(http.MethodPut, "/api/sync/content", "", key2, bytes.NewReader(pillLibrary().Proto()), map[string]string{"If-Match": a.ETag})
	if resp.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("If-Match with nothing stored: %d", resp.StatusCode)
	}
}

// beforePut runs fn once before the first PUT it carries.
type beforePut struct{ fn func() }

func (b beforePut) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPut && b.fn != nil {
		b.fn()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestV1ReadsIn: an upload's read chapters on MangaPill move Progress
// (source sync) to the furthest chapter marked read, a partly read
// chapter does not count, the favourite becomes a bookmark, its AniList
// tracking row an id of source sync; a device that reads a new chapter
// moves Progress on its next sync.
func TestV1ReadsIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000004")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	m := pillManga("10", 6, 3, at)
	m.Chapters[3].Read = false // chapter 4 partly read: lastPageRead 3, not read
	m.Tracking = []tachibktest.Track{{SyncID: 2, MediaID: 30002}}
	p := e.phone(key, pillLibrary(m, pillManga("11", 2, 0, at)), false, "")
	e.sync(p)
	ref := e.series(m.URL)
	if n, src := e.progress(reader, ref); n != "3" || src != "sync" {
		t.Fatalf("Progress %q (%s), want 3 from sync", n, src)
	}
	ids, err := e.st.SeriesExternalIDs(context.Background(), reader, ref.Site, ref.SeriesID)
	if err != nil || len(ids) != 1 || ids[0].Kind != "al" || ids[0].Value != "30002" || ids[0].Source != "mine" {
		t.Fatalf("ids %+v %v", ids, err)
	}
	var src string
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT source FROM series_ids WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
		reader, ref.Site, ref.SeriesID).Scan(&src); err != nil || src != "sync" {
		t.Fatalf("stored id source %q (%v), want sync", src, err)
	}
	res, _ := e.state(tok)["last_result"].(map[string]any)
	want := map[string]float64{"manga": 2, "matched": 2, "progress_moved": 1, "bookmarks_added": 2, "not_added": 0}
	for k, v := range want {
		if res[k] != v {
			t.Fatalf("last_result %v, want %v", res, want)
		}
	}
	// The phone reads chapter 4 and 5: the app marks them read and bumps
	// their version.
	e.clock.Add(time.Hour)
	for i := 3; i < 5; i++ {
		c := &p.Local.Manga[0].Chapters[i]
		c.Read, c.Version, c.LastModifiedAt = true, c.Version+1, e.clock.Now().Unix()
	}
	e.sync(p)
	if n, _ := e.progress(reader, ref); n != "5" {
		t.Fatalf("Progress %q after the phone read 5", n)
	}
	c, err := e.st.CountSync(context.Background(), e.clock.Now())
	if err != nil || c.ReadersSyncing != 1 || c.UploadsToday != 2 || c.BytesStored != int64(len(p.Local.Proto())) || c.ProgressMoved != 2 {
		t.Fatalf("counts %+v %v: want 1 Reader, 2 uploads, the library's bytes, 2 moves", c, err)
	}
}

// TestV1ReadsOut: a read made on the web flows out at the next GET as the
// library's own chapter entries marked read, version one above, time now;
// nothing else differs. The phone merges them in, and once it has pushed
// them back the answer is the upload again (304).
func TestV1ReadsOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000005")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	p := e.phone(key, pillLibrary(pillManga("20", 8, 2, at)), false, "")
	e.sync(p)
	uploaded := p.Local.Proto()
	ref := e.series("/manga/20/title-20")
	e.clock.Add(time.Hour)
	e.readElsewhere(reader, ref, "5")

	resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, map[string]string{"If-None-Match": p.ETag})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != p.ETag {
		t.Fatalf("GET after a read elsewhere: %d etag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	got, err := syncclient.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := syncclient.Decode(uploaded)
	now := e.clock.Now().Unix()
	for i, c := range got.Manga[0].Chapters {
		w := before.Manga[0].Chapters[i]
		if i >= 2 && i < 5 {
			w.Read, w.Version, w.LastModifiedAt = true, w.Version+1, now
		}
		if !bytes.Equal((&syncclient.Library{Manga: []syncclient.Manga{{Chapters: []syncclient.Chapter{c}}}}).Proto(),
			(&syncclient.Library{Manga: []syncclient.Manga{{Chapters: []syncclient.Chapter{w}}}}).Proto()) {
			t.Fatalf("chapter %d: %+v, want %+v", i+1, c, w)
		}
	}
	got.Manga[0].Chapters, before.Manga[0].Chapters = nil, nil
	if !syncclient.Equal(got, before) {
		t.Fatal("the answer differs from the upload outside the chapters read elsewhere")
	}
	e.sync(p)
	for i, c := range p.Local.Manga[0].Chapters {
		if c.Read != (i < 5) {
			t.Fatalf("phone chapter %d read %v after the sync", i+1, c.Read)
		}
	}
	if n, src := e.progress(reader, ref); n != "5" || src != "reader" {
		t.Fatalf("Progress %s (%s): the echo of the read moved it", n, src)
	}
	if out := e.sync(p); out.Status != http.StatusNotModified {
		t.Fatalf("sync after the echo: %+v, want 304", out)
	}
}
