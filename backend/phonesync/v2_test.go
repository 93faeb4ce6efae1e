package phonesync_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"mangabookmark/backend/api"
	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/syncclient"
)

// v2Phone is a TachiyomiSY v2 client (syncclient.V2) holding lib.
func (e *env) v2Phone(key, device string, lib *dynamicpb.Message) *syncclient.V2 {
	return &syncclient.V2{Host: e.srv.URL, Key: key, DeviceID: device, DeviceName: "Pixel " + device,
		HTTP: http.DefaultClient, Msgs: bp.MustLoad(), Library: lib}
}

func (e *env) v2Sync(p *syncclient.V2, full bool) syncclient.V2Result {
	e.t.Helper()
	res, err := p.Sync(context.Background(), full)
	if err != nil {
		e.t.Fatalf("v2 sync of %s: %v", p.DeviceID, err)
	}
	if res.Status != http.StatusOK {
		e.t.Fatalf("v2 sync of %s: %d %s", p.DeviceID, res.Status, res.Body)
	}
	return res
}

// snapshot is GET /api/sync/v2/snapshot, decoded.
func (e *env) snapshot(key string) *dynamicpb.Message {
	e.t.Helper()
	resp, body := e.call(http.MethodGet, "/api/sync/v2/snapshot", "", key, nil, nil)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("snapshot: %d %s", resp.StatusCode, body)
	}
	b, err := bp.Unmarshal(bp.MustLoad().Backup, body)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// v2Lib is a generated library: every field of every message set
// (backuptest), its manga on MangaPill under ids prefix0, prefix1...
func (e *env) v2Lib(seed uint64, prefix string, firstOrder, manga int) *dynamicpb.Message {
	return backuptest.Build(bp.MustLoad(), rand.New(rand.NewPCG(seed, 1)), backuptest.Library{Manga: manga, Chapters: 6,
		Categories: 2, Prefix: prefix, FirstOrder: firstOrder, Modified: e.clock.Now().Unix()})
}

func union(libs ...protoreflect.Message) *dynamicpb.Message {
	u := bp.New(bp.MustLoad().Backup)
	for _, l := range libs {
		for _, f := range []string{"backup_categories", "backup_manga"} {
			for _, m := range bp.List(l, f) {
				bp.Append(u, f, proto.Clone(m.Interface()).ProtoReflect())
			}
		}
	}
	return u
}

func noDiff(t testing.TB, what string, want, got protoreflect.Message) {
	t.Helper()
	if d := backuptest.Diff(want, got); len(d) > 0 {
		t.Fatalf("%s: %d differences, first %v", what, len(d), d[:min(len(d), 6)])
	}
}

func TestV2Capabilities(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("300000000000000001")
	key := e.syncKey(tok)
	resp, body := e.call(http.MethodGet, "/api/sync/v2/capabilities", "", key, nil, nil)
	var got map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &got) != nil || got["version"] != float64(2) ||
		got["merge"] != "/api/sync/v2/merge" || got["snapshot"] != "/api/sync/v2/snapshot" {
		t.Fatalf("capabilities: %d %s", resp.StatusCode, body)
	}
	ok, err := e.v2Phone(key, "p", nil).Capabilities(context.Background())
	if err != nil || !ok {
		t.Fatalf("the client's probe: %v %v", ok, err)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/v2/capabilities", tok, "", nil, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a Reader token on capabilities: %d, want 401", resp.StatusCode)
	}
	if resp, _ := e.call(http.MethodGet, "/api/sync/v2/snapshot", "", key, nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("snapshot with nothing merged: %d, want 404", resp.StatusCode)
	}
}

// TestV2FirstSyncTwoDevicesTakingTurns: two phones on v2 sync their own
// libraries in turn; both end with both, field by field, and so does the
// snapshot; a sync with nothing new answers X-Sync-Changed: false.
func TestV2FirstSyncTwoDevicesTakingTurns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("300000000000000002")
	key := e.syncKey(tok)
	libA, libB := e.v2Lib(1, "1", 0, 4), e.v2Lib(2, "2", 2, 3)
	want := union(libA, libB)
	a := e.v2Phone(key, "phone-a", proto.Clone(libA).(*dynamicpb.Message))
	b := e.v2Phone(key, "phone-b", proto.Clone(libB).(*dynamicpb.Message))

	if r := e.v2Sync(a, false); !r.Full || r.Cursor != 1 || !r.Changed {
		t.Fatalf("a's first sync: %+v", r)
	}
	if r := e.v2Sync(b, false); !r.Full || r.Cursor != 2 {
		t.Fatalf("b's first sync: %+v", r)
	}
	noDiff(t, "b after its first sync", want, b.Library)
	r := e.v2Sync(a, false)
	if r.Full || !r.Changed {
		t.Fatalf("a's delta: %+v", r)
	}
	noDiff(t, "a after its turn", want, a.Library)
	noDiff(t, "the snapshot", want, e.snapshot(key))
	if r := e.v2Sync(b, false); r.Changed || r.Cursor != 2 {
		t.Fatalf("b with nothing new: %+v", r)
	}
	st := e.state(tok)
	if devs, _ := st["devices"].([]any); len(devs) != 2 {
		t.Fatalf("devices %v, want phone-a and phone-b", st["devices"])
	}
}

// TestV2ADeviceWithANewChapterRead: a chapter read on one phone reaches
// the other at its next sync, and moves the Reader's Progress (source
// sync).
func TestV2ADeviceWithANewChapterRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, readerID := e.reader("300000000000000003")
	key := e.syncKey(tok)
	lib := e.v2Lib(3, "3", 0, 2)
	m := favourite(t, lib)
	a := e.v2Phone(key, "phone-a", proto.Clone(lib).(*dynamicpb.Message))
	b := e.v2Phone(key, "phone-b", proto.Clone(lib).(*dynamicpb.Message))
	e.v2Sync(a, false)
	e.v2Sync(b, false)

	ch := chapterIn(a.Library, bp.String(m, "url"), 5)
	bp.Set(ch, "read", true)
	bp.Set(ch, "version", bp.Int(ch, "version")+1)
	if r := e.v2Sync(a, false); r.Full {
		t.Fatal("a's read went up as a full library, want a delta")
	}
	if r := e.v2Sync(b, false); !r.Changed {
		t.Fatal("b's sync after a's read: changed false")
	}
	if got := chapterIn(b.Library, bp.String(m, "url"), 5); !bp.Bool(got, "read", false) {
		t.Fatal("b does not hold a's read")
	}
	if n, src := e.progress(readerID, e.series(bp.String(m, "url"))); n != "5" || src != "sync" {
		t.Fatalf("Progress %q from %q, want 5 from sync", n, src)
	}
}

// favourite returns lib's first favourite manga.
func favourite(t testing.TB, lib protoreflect.Message) protoreflect.Message {
	for _, m := range bp.List(lib, "backup_manga") {
		if bp.Bool(m, "favorite", true) {
			return m
		}
	}
	t.Fatal("no favourite in the library")
	return nil
}

// chapterIn is chapter number n of the manga at mangaURL in lib.
func chapterIn(lib protoreflect.Message, mangaURL string, n int) protoreflect.Message {
	for _, m := range bp.List(lib, "backup_manga") {
		if bp.String(m, "url") != mangaURL {
			continue
		}
		for _, c := range bp.List(m, "chapters") {
			if c.Get(bp.Field(c, "chapter_number")).Float() == float64(n) {
				return c
			}
		}
	}
	panic("no chapter " + strconv.Itoa(n) + " of " + mangaURL)
}

// TestV2CapabilitiesWithoutV2: a server with the phone sync but no v2
// engine answers the probe 404, so the client falls back to v1.
func TestV2CapabilitiesWithoutV2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("300000000000000008")
	key := e.syncKey(tok)
	srv, err := api.New(api.Config{Store: e.st, Sites: e.reg, Auth: e.auth, PhoneSync: e.ps, Now: e.clock.Now, NoLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	old := httptest.NewServer(srv)
	t.Cleanup(old.Close)
	p := e.v2Phone(key, "p", nil)
	p.Host = old.URL
	if ok, err := p.Capabilities(context.Background()); err != nil || ok {
		t.Fatalf("probe of a server without v2: v2 %v, error %v; want v1 (404)", ok, err)
	}
}

// TestV2SnapshotAnswersByCursor: GET /api/sync/v2/snapshot with the
// library's cursor is 304 with that cursor; with another cursor (or
// none) it is the whole library, the cursor and ETag beside it. A cursor
// the phone sends that is not a whole number of 0 or more is 400.
func TestV2SnapshotAnswersByCursor(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, _ := e.reader("300000000000000009")
	key := e.syncKey(tok)
	lib := e.v2Lib(1, "1", 0, 3)
	if r := e.v2Sync(e.v2Phone(key, "phone-a", proto.Clone(lib).(*dynamicpb.Message)), false); r.Cursor != 1 {
		t.Fatalf("first sync: %+v", r)
	}
	for _, tc := range []struct {
		cursor string
		want   int
	}{{"1", http.StatusNotModified}, {"0", http.StatusOK}, {"", http.StatusOK}, {"7", http.StatusOK},
		{"-1", http.StatusBadRequest}, {"1e3", http.StatusBadRequest}, {"99999999999999999999", http.StatusBadRequest}} {
		hdr := map[string]string{}
		if tc.cursor != "" {
			hdr["X-Sync-Cursor"] = tc.cursor
		}
		resp, body := e.call(http.MethodGet, "/api/sync/v2/snapshot", "", key, nil, hdr)
		if resp.StatusCode != tc.want {
			t.Fatalf("cursor %q: %d %s, want %d", tc.cursor, resp.StatusCode, body, tc.want)
		}
		if tc.want == http.StatusBadRequest {
			continue
		}
		if got := resp.Header.Get("X-Sync-Cursor"); got != "1" || resp.Header.Get("ETag") != "seq=1" {
			t.Fatalf("cursor %q: X-Sync-Cursor %q ETag %q, want 1 and seq=1", tc.cursor, got, resp.Header.Get("ETag"))
		}
		if (tc.want == http.StatusNotModified) != (len(body) == 0) {
			t.Fatalf("cursor %q: %d with a body of %d bytes", tc.cursor, resp.StatusCode, len(body))
		}
	}
}
