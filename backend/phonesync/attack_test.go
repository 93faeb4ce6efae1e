package phonesync_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/phonesync"
	"mangabookmark/backend/phonesync/syncclient"
)

// TestV1ByteIdentity: 100 random libraries, raw and gzipped, come back
// from GET byte for byte as uploaded (inflated) when nothing was read
// elsewhere.
func TestV1ByteIdentity(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("200000000000000010")
	key := e.syncKey(tok)
	r := rand.New(rand.NewPCG(43, 1))
	for i := range 100 {
		lib := syncclient.RandomBackup(r, r.IntN(40)).Proto()
		body, hdr := lib, map[string]string{}
		if i%2 == 1 {
			body, hdr = gz(lib), map[string]string{"Content-Encoding": "gzip"}
		}
		resp, msg := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(body), hdr)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == "" {
			t.Fatalf("library %d: PUT %d %s", i, resp.StatusCode, msg)
		}
		etag := resp.Header.Get("ETag")
		resp, got := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != etag || !bytes.Equal(got, lib) {
			t.Fatalf("library %d: GET %d, etag %q (put %q), identical %v", i, resp.StatusCode, resp.Header.Get("ETag"), etag, bytes.Equal(got, lib))
		}
		if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", key, nil, map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusNotModified {
			t.Fatalf("library %d: GET with its ETag %d, want 304", i, resp.StatusCode)
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// errorBody is a JSON {"error"} body with a sentence.
func errorBody(t *testing.T, b []byte) string {
	t.Helper()
	var v struct{ Error string }
	if json.Unmarshal(b, &v) != nil || len(v.Error) < 10 {
		t.Fatalf("body %q is not an {\"error\"} sentence", b)
	}
	return v.Error
}

// TestV1Keys: the sync routes take a live sync key in X-API-Token only;
// a sync key calls nothing else; a key reads its own Reader's library
// only; a rotated or revoked key is refused, and DELETE drops the library.
func TestV1Keys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tokA, _ := e.reader("200000000000000020")
	tokB, _ := e.reader("200000000000000021")
	keyA, keyB := e.syncKey(tokA), e.syncKey(tokB)
	lib := pillLibrary(pillManga("1", 2, 1, 1)).Proto()
	if resp, _ := e.call(http.MethodPut, "/api/sync/content", "", keyA, bytes.NewReader(lib), nil); resp.StatusCode != 200 {
		t.Fatalf("PUT with A's key: %d", resp.StatusCode)
	}
	for name, c := range map[string]struct{ bearer, key string }{
		"no key":               {},
		"a Reader token":       {key: tokA},
		"a Reader bearer":      {bearer: tokA},
		"a sync key as bearer": {bearer: keyA},
		"junk":                 {key: "mbsync_" + strings.Repeat("x", 43)},
	} {
		for _, m := range []string{http.MethodGet, http.MethodPut} {
			resp, body := e.call(m, "/api/sync/content", c.bearer, c.key, bytes.NewReader(lib), nil)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("%s %s: %d, want 401", name, m, resp.StatusCode)
			}
			errorBody(t, body)
		}
	}
	for _, p := range []string{"/api/me", "/api/me/sync", "/api/bookmarks"} {
		if resp, _ := e.call(http.MethodGet, p, "", keyA, nil, nil); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("sync key in X-API-Token on %s: %d", p, resp.StatusCode)
		}
		if resp, _ := e.call(http.MethodGet, p, keyA, "", nil, nil); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("sync key as bearer on %s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", keyB, nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("B's key reads %d, want 404 (A's library is A's)", resp.StatusCode)
	}
	newA := e.syncKey(tokA)
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", keyA, nil, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("rotated key: %d", resp.StatusCode)
	}
	if resp, body := e.call(http.MethodGet, "/api/sync/content", "", newA, nil, nil); resp.StatusCode != 200 || !bytes.Equal(body, lib) {
		t.Fatalf("new key: %d", resp.StatusCode)
	}
	if resp, _ := e.call(http.MethodDelete, "/api/me/sync", tokA, "", nil, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", newA, nil, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("revoked key: %d", resp.StatusCode)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", e.syncKey(tokA), nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after DELETE a new key finds %d, want 404", resp.StatusCode)
	}
	var n int
	if err := e.st.Pool().QueryRow(t.Context(), `SELECT count(*) FROM phone_sync WHERE library_sealed IS NOT NULL`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d libraries stored after DELETE (%v)", n, err)
	}
}

// TestV1Bodies: a gzip bomb and a body past the cap are 413 with a
// sentence and store nothing; a library with a field claiming a huge
// length, or nested ten thousand deep, is stored and answered byte
// for byte (it is only not read); a device id of 10 kB is not recorded.
func TestV1Bodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace, func(c *phonesync.Config) { c.MaxBody, c.MaxInflated = 64<<10, 1<<20 })
	tok, _ := e.reader("200000000000000030")
	key := e.syncKey(tok)
	bomb := gz(make([]byte, 16<<20))
	resp, body := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(bomb), map[string]string{"Content-Encoding": "gzip"})
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(errorBody(t, body), "inflates past 1 MiB") {
		t.Fatalf("gzip bomb: %d %s", resp.StatusCode, body)
	}
	resp, body = e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(make([]byte, 65<<10)), nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(errorBody(t, body), "larger than 64 KiB") {
		t.Fatalf("body past the cap: %d %s", resp.StatusCode, body)
	}
	if resp, body := e.call(http.MethodPut, "/api/sync/content", "", key, strings.NewReader("x"), map[string]string{"Content-Encoding": "br"}); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("brotli: %d %s", resp.StatusCode, body)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a refused body was stored: GET %d", resp.StatusCode)
	}
	huge := protowire.AppendTag(nil, 1, protowire.BytesType)
	huge = protowire.AppendVarint(huge, 1<<40)
	huge = append(huge, "short"...)
	deep := []byte("core")
	for range 10000 {
		deep = protowire.AppendBytes(protowire.AppendTag(nil, 500, protowire.BytesType), deep)
	}
	deep = append(protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), deep), pillLibrary().Proto()...)
	for name, lib := range map[string][]byte{"huge length": huge, "deep": gz(deep)} {
		hdr := map[string]string{"X-Device-ID": strings.Repeat("d", 10<<10)}
		if name == "deep" {
			hdr["Content-Encoding"] = "gzip"
		}
		resp, body := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), hdr)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: PUT %d %s", name, resp.StatusCode, body)
		}
		want := lib
		if name == "deep" {
			want = deep
		}
		if resp, got := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil); resp.StatusCode != 200 || !bytes.Equal(got, want) {
			t.Fatalf("%s: GET %d, identical %v", name, resp.StatusCode, bytes.Equal(got, want))
		}
	}
	for _, d := range e.state(tok)["devices"].([]any) {
		if id := d.(map[string]any)["id"].(string); id != "" {
			t.Fatalf("device %.40q recorded: a 10 kB id is not kept", id)
		}
	}
}

// TestV1OneUploadAtOnce: while one upload of a key is being read, a second
// is 429 with Retry-After; the first then lands. Past the pace, 429 too.
func TestV1OneUploadAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *phonesync.Config) { c.Burst = 3 })
	tok, readerID := e.reader("200000000000000040")
	key := e.syncKey(tok)
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	var first int
	ended := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(ended)
		req, _ := http.NewRequest(http.MethodPut, e.srv.URL+"/api/sync/content", pr)
		req.Header.Set("X-API-Token", key)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			first = resp.StatusCode
			resp.Body.Close()
		}
	}()
	lib := pillLibrary(pillManga("1", 1, 1, 1)).Proto()
	// The upload holds the key's slot once the server has its request:
	// wait for that, not for the client to take the first bytes.
	if _, err := pw.Write(lib[:4]); err != nil {
		t.Fatal(err)
	}
	for !e.ps.Uploading(readerID) {
		select {
		case <-ended:
			t.Fatal("the first upload ended before it held the slot")
		case <-time.After(time.Millisecond):
		}
	}
	resp, body := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second upload at once: %d %s", resp.StatusCode, body)
	}
	errorBody(t, body)
	_, _ = pw.Write(lib[4:])
	_ = pw.Close()
	wg.Wait()
	if first != http.StatusOK {
		t.Fatalf("first upload: %d", first)
	}
	// Burst 3: the first upload and one more pass, the next is paced
	// (the refused one took no token).
	if resp, _ := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil); resp.StatusCode != 200 {
		t.Fatalf("second upload: %d", resp.StatusCode)
	}
	if resp, _ := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil); resp.StatusCode != 200 {
		t.Fatalf("third upload: %d", resp.StatusCode)
	}
	resp, _ = e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "5" {
		t.Fatalf("past the pace: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestV1Event answers events as the SyncYomi server does.
func TestV1Event(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("200000000000000050")
	key := e.syncKey(tok)
	for body, want := range map[string]int{
		`{"event":"SYNC_SUCCESS","device_name":"Pixel 9","message":null}`: http.StatusNoContent,
		`{"event":"SYNC_NOPE"}`: http.StatusBadRequest,
		`{"device_name":"x"}`:   http.StatusBadRequest,
		`{`:                     http.StatusBadRequest,
	} {
		if resp, b := e.call(http.MethodPost, "/api/sync/event", "", key, strings.NewReader(body), map[string]string{"Content-Type": "application/json"}); resp.StatusCode != want {
			t.Fatalf("event %s: %d %s, want %d", body, resp.StatusCode, b, want)
		}
	}
	devs, _ := e.state(tok)["devices"].([]any)
	if len(devs) != 1 || devs[0].(map[string]any)["name"] != "Pixel 9" {
		t.Fatalf("devices %v", devs)
	}
}

// TestV1LibraryUnderAnotherKey: a stored library sealed under another
// TOKEN_KEY (or damaged) is answered as nothing stored, and the phone's
// next push replaces it.
func TestV1LibraryUnderAnotherKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, reader := e.reader("200000000000000060")
	key := e.syncKey(tok)
	p := e.phone(key, pillLibrary(pillManga("1", 2, 1, 1)), false, "")
	e.sync(p)
	if _, err := e.st.Pool().Exec(t.Context(), `UPDATE phone_sync SET library_sealed = $2 WHERE reader_id = $1`, reader, []byte("not sealed here")); err != nil {
		t.Fatal(err)
	}
	if out := e.sync(p); out.Status != http.StatusNotFound || !out.Pushed {
		t.Fatalf("sync over a library that does not open: %+v", out)
	}
	if resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil); resp.StatusCode != 200 || !bytes.Equal(body, p.Local.Proto()) {
		t.Fatalf("GET after the new push: %d", resp.StatusCode)
	}
}
