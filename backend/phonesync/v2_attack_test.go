package phonesync_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"mangabookmark/backend/phonesync"
	bp "mangabookmark/backend/phonesync/backuppb"
)

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// merge posts body (raw) to POST /api/sync/v2/merge with hdr over a
// device id, cursor 0.
func (e *env) mergeRaw(key string, body []byte, hdr map[string]string) (*reply, []byte) {
	h := map[string]string{"X-Device-ID": "attacker", "X-Sync-Cursor": "0"}
	for k, v := range hdr {
		h[k] = v
	}
	return e.call(http.MethodPost, "/api/sync/v2/merge", "", key, bytes.NewReader(body), h)
}

// TestV2Attacks: every input of a v2 request a phone controls is bounded
// and refused with a sentence, and a refused request stores nothing.
func TestV2Attacks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace, func(c *phonesync.Config) { c.MaxBody, c.MaxInflated = 1<<20, 1<<20 })
	tok, readerID := e.reader("300000000000000006")
	key := e.syncKey(tok)
	otherTok, _ := e.reader("300000000000000007")
	otherKey := e.syncKey(otherTok)
	lib := e.v2Lib(7, "7", 0, 2)
	good, err := bp.Marshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := e.mergeRaw(key, good, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("a good merge: %d %s", resp.StatusCode, body)
	}
	before := e.snapshot(key)

	var deep []byte // 100,000 nested groups, never closed, in a field the model does not name
	for range 100000 {
		deep = protowire.AppendTag(deep, 9999, protowire.StartGroupType)
	}
	var closed []byte // the same, closed: a valid unknown field, kept whole
	closed = append(closed, deep...)
	for range 100000 {
		closed = protowire.AppendTag(closed, 9999, protowire.EndGroupType)
	}
	var zero []byte // a category with a field numbered 0
	zero = protowire.AppendTag(zero, 2, protowire.BytesType)
	zero = protowire.AppendBytes(zero, []byte{0x02, 0x01, 'x'})
	bomb := gzipped(t, make([]byte, 8<<20))

	cases := []struct {
		name   string
		key    string
		bearer string
		body   []byte
		hdr    map[string]string
		status int
	}{
		{"no key", "", "", good, nil, http.StatusUnauthorized},
		{"a Reader token, not a sync key", "", tok, good, nil, http.StatusUnauthorized},
		{"a Reader token in X-API-Token", tok, "", good, nil, http.StatusUnauthorized},
		{"no device id", key, "", good, map[string]string{"X-Device-ID": ""}, http.StatusBadRequest},
		{"a device id of 10 kB", key, "", good, map[string]string{"X-Device-ID": strings.Repeat("d", 10<<10)}, http.StatusBadRequest},
		{"a device id of 129 bytes", key, "", good, map[string]string{"X-Device-ID": strings.Repeat("d", 129)}, http.StatusBadRequest},
		{"a cursor that is not a number", key, "", good, map[string]string{"X-Sync-Cursor": "abc"}, http.StatusBadRequest},
		{"a negative cursor", key, "", good, map[string]string{"X-Sync-Cursor": "-1"}, http.StatusBadRequest},
		{"a cursor past int64", key, "", good, map[string]string{"X-Sync-Cursor": "99999999999999999999"}, http.StatusBadRequest},
		{"a bad category list", key, "", good, map[string]string{"X-Sync-Deleted-Categories": "1,two"}, http.StatusBadRequest},
		{"1001 deleted categories", key, "", good, map[string]string{"X-Sync-Deleted-Categories": strings.Repeat("1,", 1001)}, http.StatusBadRequest},
		{"a gzip bomb", key, "", bomb, map[string]string{"Content-Encoding": "gzip"}, http.StatusRequestEntityTooLarge},
		{"gzip that is not", key, "", good, map[string]string{"Content-Encoding": "gzip"}, http.StatusBadRequest},
		{"another encoding", key, "", good, map[string]string{"Content-Encoding": "br"}, http.StatusUnsupportedMediaType},
		{"not a backup", key, "", []byte("\xff\xff\xff\xff"), nil, http.StatusBadRequest},
		{"a field numbered 0", key, "", zero, nil, http.StatusBadRequest},
		{"deeply nested groups", key, "", deep, nil, http.StatusBadRequest},
		{"larger than the body cap", key, "", make([]byte, 2<<20), nil, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		var resp *reply
		var body []byte
		if c.bearer != "" {
			resp, body = e.call(http.MethodPost, "/api/sync/v2/merge", c.bearer, "", bytes.NewReader(c.body),
				map[string]string{"X-Device-ID": "attacker"})
		} else {
			resp, body = e.mergeRaw(c.key, c.body, c.hdr)
		}
		if resp.StatusCode != c.status || !bytes.Contains(body, []byte(`"error"`)) {
			t.Errorf("%s: %d %s, want %d and a sentence", c.name, resp.StatusCode, body, c.status)
		}
	}
	noDiff(t, "the library after the refused requests", before, e.snapshot(key))

	// Deep nesting the model does not name stays unknown bytes: merged
	// (the Backup's unknown fields, as the SyncYomi server keeps them) or
	// refused, never a crash, and the manga stay as they were.
	if resp, body := e.mergeRaw(key, append(append([]byte(nil), good...), closed...), nil); resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("closed deep groups: %d %s", resp.StatusCode, body)
	}
	noDiff(t, "the library after deep groups", before, e.snapshot(key))

	// Another Reader's key merges into that Reader's library only.
	if resp, _ := e.mergeRaw(otherKey, good, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("the other Reader's merge: %d", resp.StatusCode)
	}
	empty := bp.New(bp.MustLoad().Backup)
	other := e.v2Phone(otherKey, "other", empty)
	m := proto.Clone(bp.List(lib, "backup_manga")[0].Interface()).ProtoReflect()
	bp.Set(m, "title", "written by the other Reader")
	bp.Set(m, "version", bp.Int(m, "version")+5)
	bp.Append(other.Library, "backup_manga", m)
	other.Cursor = 1
	e.v2Sync(other, false)
	noDiff(t, "the first Reader's library after another Reader's merges", before, e.snapshot(key))

	// A cursor from the future: taken as 0, the whole library, and a full
	// upload asked for.
	resp, body := e.mergeRaw(key, nil, map[string]string{"X-Sync-Cursor": "1000000"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Sync-Full-Requested") != "true" || resp.Header.Get("X-Sync-Cursor") != "1" {
		t.Fatalf("a cursor from the future: %d %v", resp.StatusCode, resp.Header)
	}
	got, err := bp.Unmarshal(bp.MustLoad().Backup, body)
	if err != nil {
		t.Fatal(err)
	}
	noDiff(t, "the answer to a cursor from the future", before, got)

	// Two uploads at once: the second is 429 with Retry-After.
	release, err := e.ps.Begin(readerID)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ = e.mergeRaw(key, good, nil)
	release()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a merge while another is in flight: %d %v", resp.StatusCode, resp.Header)
	}

	// A revoked key: 401, and the v2 library is gone.
	if resp, _ := e.call(http.MethodDelete, "/api/me/sync", tok, "", nil, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE /api/me/sync: %d", resp.StatusCode)
	}
	if resp, _ := e.mergeRaw(key, good, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a revoked key: %d, want 401", resp.StatusCode)
	}
	var n int
	if err := e.st.Pool().QueryRow(t.Context(), `SELECT count(*) FROM sync_v2_items WHERE reader_id = $1`, readerID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after DELETE /api/me/sync: %d v2 items left (%v)", n, err)
	}
}
