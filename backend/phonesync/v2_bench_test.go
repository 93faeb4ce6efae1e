package phonesync_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
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
