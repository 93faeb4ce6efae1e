package phonesync_test

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/syncclient"
)

// TestV2ReadsMadeElsewhereFlowOut: a read the userscript reports marks,
// at the phone's next merge, the phone's own copies of the chapters it
// passed: read true, version one above, lastModifiedAt now, nothing else;
// the other phone gets them at its next merge, and nothing is marked
// twice.
func TestV2ReadsMadeElsewhereFlowOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, readerID := e.reader("300000000000000004")
	key := e.syncKey(tok)
	lib := e.v2Lib(4, "4", 0, 2)
	m := favourite(t, lib)
	url := bp.String(m, "url")
	a := e.v2Phone(key, "phone-a", proto.Clone(lib).(*dynamicpb.Message))
	b := e.v2Phone(key, "phone-b", proto.Clone(lib).(*dynamicpb.Message))
	e.v2Sync(a, false)
	e.v2Sync(b, false)

	e.clock.Add(time.Hour)
	e.readElsewhere(readerID, e.series(url), "5")
	r := e.v2Sync(a, false)
	if !r.Changed {
		t.Fatal("the merge after a read elsewhere: changed false")
	}
	for n := 4; n <= 6; n++ {
		// The answer carries the marked copy; the phone's restore then
		// takes its read and version (and keeps its own lastModifiedAt).
		before := chapterIn(lib, url, n)
		got := chapterIn(r.Answer, url, n)
		if mine := chapterIn(a.Library, url, n); bp.Bool(mine, "read", false) != (n < 6) {
			t.Fatalf("the phone's chapter %d: read %v", n, bp.Bool(mine, "read", false))
		}
		if n == 6 {
			if !proto.Equal(before.Interface(), got.Interface()) {
				t.Fatal("chapter 6, past the read, changed")
			}
			continue
		}
		want := proto.Clone(before.Interface()).ProtoReflect()
		bp.Set(want, "read", true)
		bp.Set(want, "version", bp.Int(before, "version")+1)
		bp.Set(want, "last_modified_at", e.clock.Now().Unix())
		if !proto.Equal(want.Interface(), got.Interface()) {
			t.Fatalf("chapter %d: got %v, want %v", n, got, want)
		}
	}
	e.v2Sync(b, false)
	if !bp.Bool(chapterIn(b.Library, url, 5), "read", false) {
		t.Fatal("the other phone does not get the read made elsewhere")
	}
	if r := e.v2Sync(a, false); r.Changed {
		t.Fatal("the next merge marks again")
	}
}

// TestNothingLostV1ThenV2: two phones take turns on v1, then move to v2
// and take turns there, with a read made elsewhere in between. Every
// manga, chapter, category, tracking row and history entry of both
// survives, field by field, on the server and on both phones; the only
// change the server made is the chapters that read passed.
func TestNothingLostV1ThenV2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, noPace)
	tok, readerID := e.reader("300000000000000005")
	key := e.syncKey(tok)
	start := e.clock.Now().Unix()
	libA := e.v2Lib(5, "5", 0, 4)
	libB := backuptest.Build(bp.MustLoad(), randFor(6), backuptest.Library{Manga: 3, Chapters: 6, Categories: 2,
		Prefix: "6", FirstOrder: 2, Modified: start + 90})
	want := union(libA, libB)
	// B's library changed after A's first sync (at start + 60): the v1
	// client drops what only the other side holds when it is older than
	// its own last sync (SY-stable's SyncService.kt), as the app would.

	v1 := func(lib *dynamicpb.Message, device string, gz bool) *syncclient.V1 {
		raw, err := bp.Marshal(lib)
		if err != nil {
			t.Fatal(err)
		}
		l, err := syncclient.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		return &syncclient.V1{Host: e.srv.URL, Key: key, Gzip: gz, DeviceID: device, Now: e.clock.Now, Local: l}
	}
	a1, b1 := v1(libA, "", false), v1(libB, "phone-b", true)
	for _, p := range []*syncclient.V1{a1, b1, a1} {
		e.clock.Add(time.Minute)
		e.sync(p)
	}
	decoded := func(l *syncclient.Library) *dynamicpb.Message {
		b, err := bp.Unmarshal(bp.MustLoad().Backup, l.Proto())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	noDiff(t, "phone a after v1", want, decoded(a1.Local))
	noDiff(t, "phone b after v1", want, decoded(b1.Local))

	a2 := e.v2Phone(key, "phone-a", decoded(a1.Local))
	b2 := e.v2Phone(key, "phone-b", decoded(b1.Local))
	e.v2Sync(a2, false)
	e.v2Sync(b2, false)
	m := favourite(t, libA)
	url := bp.String(m, "url")
	e.clock.Add(time.Hour)
	e.readElsewhere(readerID, e.series(url), "5")
	e.v2Sync(a2, false)
	e.v2Sync(b2, false)

	snap := e.snapshot(key)
	var marked []string
	for _, n := range []string{"4", "5"} {
		marked = append(marked, "chapter "+mangaKeyOf(m)+" "+chapterURL(libA, url, n)+": ")
	}
	onlyMarked(t, "the server", backuptest.Diff(want, snap), marked, "read ", "version ", "last_modified_at ")
	for _, n := range []int{4, 5} {
		if !bp.Bool(chapterIn(snap, url, n), "read", false) || !bp.Bool(chapterIn(a2.Library, url, n), "read", false) {
			t.Fatalf("chapter %d, passed by the read made elsewhere, is not read on the server and phone a", n)
		}
	}
	// The phones took the marks' read and version; the app's restore
	// keeps a chapter's own lastModifiedAt.
	onlyMarked(t, "phone a", backuptest.Diff(snap, a2.Library), marked, "last_modified_at ")
	onlyMarked(t, "phone b", backuptest.Diff(snap, b2.Library), marked, "last_modified_at ")
	resp, _ := e.call(http.MethodGet, "/api/sync/v2/snapshot", "", key, nil, map[string]string{"X-Sync-Cursor": "0"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("snapshot: %d", resp.StatusCode)
	}
}

// onlyMarked fails t for each difference that is not one of fields of
// one of the marked chapters.
func onlyMarked(t *testing.T, who string, diffs, marked []string, fields ...string) {
	t.Helper()
	for _, d := range diffs {
		ok := false
		for _, p := range marked {
			for _, f := range fields {
				ok = ok || strings.HasPrefix(d, p+f)
			}
		}
		if !ok {
			t.Errorf("%s: more changed than the reads made elsewhere: %s", who, d)
		}
	}
}

func mangaKeyOf(m protoreflect.Message) string {
	return strconv.FormatInt(bp.Int(m, "source"), 10) + "|" + bp.String(m, "url")
}

func chapterURL(lib protoreflect.Message, mangaURL, n string) string {
	num, _ := strconv.Atoi(n)
	return bp.String(chapterIn(lib, mangaURL, num), "url")
}

func randFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }
