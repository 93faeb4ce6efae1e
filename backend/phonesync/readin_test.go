package phonesync_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/store"
)

// bookmarked reports whether the Reader bookmarks the MangaPill manga.
func (e *env) bookmarked(readerID int64, mangaURL string) bool {
	e.t.Helper()
	ref := e.series(mangaURL)
	var n int
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM bookmarks
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, readerID, ref.Site, ref.SeriesID).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n == 1
}

// lastResult is GET /api/me/sync's last_result, its numbers.
func (e *env) lastResult(tok string) map[string]float64 {
	e.t.Helper()
	res, _ := e.state(tok)["last_result"].(map[string]any)
	out := map[string]float64{}
	for k, v := range res {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out
}

// TestV1ReadsInOnlyWhatChanged: an upload reads in only the manga whose
// bytes changed since the last reading (ADR 0035). A bookmark the Reader
// removed on the web is not made again by the phone's unchanged
// favourite; a Progress moved back on the web is not pushed forward
// again by an unchanged manga; the result still counts the whole
// library; a manga the phone changed is read again.
func TestV1ReadsInOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000040")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	a, b := pillManga("40", 6, 3, at), pillManga("41", 6, 2, at)
	lib := pillLibrary(a, b).Proto()
	upload(t, e, key, lib)
	if !e.bookmarked(reader, a.URL) || !e.bookmarked(reader, b.URL) {
		t.Fatal("the first upload did not bookmark both favourites")
	}
	refA, refB := e.series(a.URL), e.series(b.URL)
	if err := e.st.RemoveBookmark(context.Background(), reader, refB.Site, refB.SeriesID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.Pool().Exec(context.Background(), `UPDATE progress SET number = 1, source = 'reader'
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, reader, refA.Site, refA.SeriesID); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(time.Minute)
	upload(t, e, key, lib) // the app started: the same library
	if e.bookmarked(reader, b.URL) {
		t.Fatal("an unchanged favourite made the bookmark the Reader removed again")
	}
	if n, _ := e.progress(reader, refA); n != "1" {
		t.Fatalf("Progress %s: an unchanged manga pushed it forward again", n)
	}
	if got := e.lastResult(tok); got["manga"] != 2 || got["matched"] != 2 || got["progress_moved"] != 0 || got["bookmarks_added"] != 0 {
		t.Fatalf("last_result %v: want the whole library counted, nothing moved", got)
	}
	// The phone reads chapter 4 of A: A alone is read again.
	a.Chapters[3].Read, a.Chapters[3].Version = true, 2
	upload(t, e, key, pillLibrary(a, b).Proto())
	if n, _ := e.progress(reader, refA); n != "4" {
		t.Fatalf("Progress %s after the phone read chapter 4", n)
	}
	if e.bookmarked(reader, b.URL) {
		t.Fatal("B did not change, yet it was read again")
	}
	if got := e.lastResult(tok); got["manga"] != 2 || got["matched"] != 2 || got["progress_moved"] != 1 {
		t.Fatalf("last_result %v", got)
	}
}

// TestV1RefusedFavouritesAreReadAgain: a favourite the limits refused is
// not covered by the kept digests, so the next upload of the same bytes
// tries it again (the contract: "the next sync tries again"); turning
// add_favorites on reads every manga again.
func TestV1RefusedFavouritesAreReadAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 1000, MaxBookmarks: 1, MaxNeverRead: 100})
	tok, reader := e.reader("200000000000000041")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	a, b := pillManga("42", 3, 1, at), pillManga("43", 3, 1, at)
	lib := pillLibrary(a, b).Proto()
	upload(t, e, key, lib)
	if got := e.lastResult(tok); got["bookmarks_added"] != 1 || got["not_added"] != 1 {
		t.Fatalf("last_result %v: want one added, one refused", got)
	}
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 1000, MaxBookmarks: 5000, MaxNeverRead: 100})
	upload(t, e, key, lib)
	if !e.bookmarked(reader, a.URL) || !e.bookmarked(reader, b.URL) {
		t.Fatal("the refused favourite was not tried again once it fit")
	}

	// add_favorites off, then on: the unchanged library is read again.
	tok2, reader2 := e.reader("200000000000000042")
	key2 := e.syncKey(tok2)
	e.setAddFavorites(tok2, false)
	upload(t, e, key2, lib)
	if e.bookmarked(reader2, a.URL) {
		t.Fatal("add_favorites off, yet a favourite became a bookmark")
	}
	e.setAddFavorites(tok2, true)
	upload(t, e, key2, lib)
	if !e.bookmarked(reader2, a.URL) {
		t.Fatal("add_favorites on: the unchanged library was not read again")
	}
}

func (e *env) setAddFavorites(tok string, on bool) {
	e.t.Helper()
	body := `{"add_favorites":false}`
	if on {
		body = `{"add_favorites":true}`
	}
	resp, out := e.call(http.MethodPut, "/api/me/sync", tok, "", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("PUT /api/me/sync: %d %s", resp.StatusCode, out)
	}
}

// TestV1DigestsAttack: what a phone sends cannot make the server skip
// another manga's reading: the same manga twice, a manga whose bytes are
// another's, and a library that does not walk as protobuf (read whole,
// refused with the reader's reason, stored all the same).
func TestV1DigestsAttack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000043")
	key := e.syncKey(tok)
	at := e.clock.Now().Unix()
	a := pillManga("44", 4, 2, at)
	lib := pillLibrary(a, a).Proto() // the same manga twice
	upload(t, e, key, lib)
	if n, _ := e.progress(reader, e.series(a.URL)); n != "2" {
		t.Fatalf("Progress %s", n)
	}
	if got := e.lastResult(tok); got["manga"] != 2 {
		t.Fatalf("last_result %v", got)
	}
	// Garbage after a good library: stored, answered 200, not read; the
	// kept digests stay those of the last reading.
	bad := append(append([]byte(nil), lib...), 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f)
	upload(t, e, key, bad)
	b := pillManga("45", 4, 3, at)
	upload(t, e, key, pillLibrary(a, b).Proto())
	if n, _ := e.progress(reader, e.series(b.URL)); n != "3" {
		t.Fatalf("Progress %s on a manga new after a refused upload", n)
	}
}

// TestV2MergeShowsOnTheCard: a v2 merge sets the card's last upload and
// result and the day's uploads as a v1 upload does, and the bytes stored
// count the v2 library too.
func TestV2MergeShowsOnTheCard(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("300000000000000040")
	key := e.syncKey(tok)
	lib := e.v2Lib(40, "40", 0, 3)
	p := e.v2Phone(key, "phone-a", proto.Clone(lib).(*dynamicpb.Message))
	e.v2Sync(p, false)
	st := e.state(tok)
	if st["last_upload_at"] == nil {
		t.Fatalf("last_upload_at %v after a v2 merge", st["last_upload_at"])
	}
	if got := e.lastResult(tok); got["manga"] != 3 {
		t.Fatalf("last_result %v after a v2 merge of 3 manga", got)
	}
	stored, _ := st["stored_bytes"].(float64)
	c, err := e.st.CountSync(context.Background(), e.clock.Now())
	if err != nil || c.UploadsToday != 1 || c.BytesStored <= 0 || float64(c.BytesStored) != stored {
		t.Fatalf("counts %+v %v, card's stored_bytes %v: want one upload and the v2 library's bytes", c, err, stored)
	}
	var sum int64
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT sum(octet_length(sealed)) FROM sync_v2_items`).Scan(&sum); err != nil || sum != c.BytesStored {
		t.Fatalf("stored %d, items seal %d (%v)", c.BytesStored, sum, err)
	}
	// A second merge that rewrites an item keeps the count true.
	e.clock.Add(time.Hour)
	ch := chapterIn(p.Library, bp.String(favourite(t, p.Library), "url"), 5)
	bp.Set(ch, "read", true)
	bp.Set(ch, "version", bp.Int(ch, "version")+1)
	e.v2Sync(p, false)
	c2, _ := e.st.CountSync(context.Background(), e.clock.Now())
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT sum(octet_length(sealed)) FROM sync_v2_items`).Scan(&sum); err != nil || sum != c2.BytesStored || c2.UploadsToday != 2 {
		t.Fatalf("after a delta: stored %d, items seal %d, uploads %d", c2.BytesStored, sum, c2.UploadsToday)
	}
}

// TestV1SameBytesRenew: an upload of the very library stored (an app
// start) takes a new ETag without the library being sealed and written
// again; If-Match still holds (412), the day counts it, GET answers the
// same bytes. A library that does not open is never renewed.
func TestV1SameBytesRenew(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000044")
	key := e.syncKey(tok)
	lib := pillLibrary(pillManga("46", 4, 2, e.clock.Now().Unix())).Proto()
	sealed := func() []byte {
		var b []byte
		if err := e.st.Pool().QueryRow(context.Background(), `SELECT library_sealed FROM phone_sync WHERE reader_id = $1`, reader).Scan(&b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	resp, _ := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil)
	first, before := resp.Header.Get("ETag"), sealed()
	resp, _ = e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), map[string]string{"If-Match": "uuid=not-it"})
	if resp.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("same bytes, wrong If-Match: %d", resp.StatusCode)
	}
	resp, _ = e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), map[string]string{"If-Match": first})
	second := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || second == first || second == "" {
		t.Fatalf("same bytes: %d, ETag %q after %q", resp.StatusCode, second, first)
	}
	if !bytes.Equal(sealed(), before) {
		t.Fatal("the same library was sealed and written again")
	}
	resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != second || !bytes.Equal(body, lib) {
		t.Fatalf("GET: %d %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if c, err := e.st.CountSync(context.Background(), e.clock.Now()); err != nil || c.UploadsToday != 2 {
		t.Fatalf("counts %+v %v: want 2 uploads", c, err)
	}
	// Damage the stored bytes: the GET answers nothing stored, and the
	// same bytes pushed again are stored whole.
	if _, err := e.st.Pool().Exec(context.Background(), `UPDATE phone_sync SET library_sealed = 'x' WHERE reader_id = $1`, reader); err != nil {
		t.Fatal(err)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET of a damaged library: %d", resp.StatusCode)
	}
	upload(t, e, key, lib)
	if resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil); resp.StatusCode != http.StatusOK || !bytes.Equal(body, lib) {
		t.Fatalf("GET after the push: %d", resp.StatusCode)
	}
}
