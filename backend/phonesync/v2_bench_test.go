package phonesync_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/store"
)

// BenchmarkReadElsewhereToDevice is issue 43's "web/userscript read →
// shown read on the device": 20 manga on MangaPill, each read elsewhere
// two chapters past what the phone holds read; the share of those
// chapters the phone shows read after its first merge since (target
// 100%), and that merge's time.
func BenchmarkReadElsewhereToDevice(b *testing.B) {
	var shown, want int
	var took time.Duration
	for i := 0; b.Loop(); i++ {
		e := newEnv(b, noPace)
		tok, readerID := e.reader("40000000000000000" + strconv.Itoa(i%10))
		key := e.syncKey(tok)
		lib := e.v2Lib(uint64(40+i), "8", 0, 20)
		for _, m := range bp.List(lib, "backup_manga") {
			bp.Clear(m, "favorite") // every manga a favourite: each is bookmarked
		}
		p := e.v2Phone(key, "phone", proto.Clone(lib).(*dynamicpb.Message))
		e.v2Sync(p, false) // chapters 1-3 of each read on the phone
		e.clock.Add(time.Hour)
		for _, m := range bp.List(lib, "backup_manga") {
			e.readElsewhere(readerID, e.series(bp.String(m, "url")), "5")
		}
		t0 := time.Now()
		if _, err := p.Sync(context.Background(), false); err != nil {
			b.Fatal(err)
		}
		took += time.Since(t0)
		for _, m := range bp.List(lib, "backup_manga") {
			for n := 4; n <= 5; n++ {
				want++
				if bp.Bool(chapterIn(p.Library, bp.String(m, "url"), n), "read", false) {
					shown++
				}
			}
		}
	}
	b.ReportMetric(100*float64(shown)/float64(want), "shown_first_merge_pct")
	b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "merge_ms")
}

// BenchmarkV2FirstMerge5000 is a phone's first v2 sync of a library of
// 5,000 manga × 20 chapters through HTTP, as the server serves it (the
// body decoded, merged, stored sealed, read in, the whole library
// answered), the client's own work left out: full_merge_s against the
// 30 s a client waits; then a one-chapter delta (delta_ms).
func BenchmarkV2FirstMerge5000(b *testing.B) {
	e := newEnv(b, noPace)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 100000, MaxBookmarks: 5000, MaxNeverRead: 100000})
	msgs := bp.MustLoad()
	lib := backuptest.Build(msgs, rand.New(rand.NewPCG(9, 1)), backuptest.Library{Manga: 5000, Chapters: 20, Categories: 5,
		Prefix: "9", Modified: e.clock.Now().Unix()})
	full, err := bp.Marshal(lib)
	if err != nil {
		b.Fatal(err)
	}
	m := proto.Clone(bp.List(lib, "backup_manga")[0].Interface()).ProtoReflect()
	ch := proto.Clone(bp.List(m, "chapters")[19].Interface()).ProtoReflect()
	bp.Clear(m, "chapters")
	bp.Append(m, "chapters", ch)
	delta := bp.New(msgs.Backup)
	bp.Append(delta, "backup_manga", m)

	merge := func(key string, body []byte, cursor string, isFull bool) (time.Duration, string) {
		t0 := time.Now()
		resp, out := e.call(http.MethodPost, "/api/sync/v2/merge", "", key, bytes.NewReader(body), map[string]string{
			"X-Device-ID": "bench-phone", "X-Sync-Cursor": cursor, "X-Sync-Full": strconv.FormatBool(isFull),
			"Content-Type": "application/octet-stream"})
		d := time.Since(t0)
		if resp.StatusCode != http.StatusOK || len(out) == 0 {
			b.Fatalf("merge: %d %.200s", resp.StatusCode, out)
		}
		return d, resp.Header.Get("X-Sync-Cursor")
	}
	var first, small time.Duration
	for i := 0; b.Loop(); i++ {
		tok, _ := e.reader(fmt.Sprintf("32000000000000%04d", i))
		key := e.syncKey(tok)
		d, cursor := merge(key, full, "0", true)
		first += d
		bp.Set(ch, "version", int64(100+i))
		body, err := bp.Marshal(delta)
		if err != nil {
			b.Fatal(err)
		}
		d, _ = merge(key, body, cursor, false)
		small += d
	}
	b.ReportMetric(first.Seconds()/float64(b.N), "full_merge_s")
	b.ReportMetric(30, "client_timeout_s")
	b.ReportMetric(float64(small.Microseconds())/1000/float64(b.N), "delta_ms")
	b.ReportMetric(float64(len(full))/(1<<20), "library_MiB")
}
