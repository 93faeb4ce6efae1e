package phonesync_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/syncclient"
	"mangabookmark/backend/store"
)

// bigLibrary is a 5,000-manga library as TachiyomiSY's stable client
// uploads it (raw protobuf made field by field from Mihon's backup
// models by tachibktest): MangaPill manga, 30 chapters each, half read,
// with history, versions and times, built once.
var bigLibrary = sync.OnceValue(func() []byte { return libraryAfter(0) })

// changedPerUpload is how many manga a steady-state upload changes: the
// phone read one more chapter of each since its last sync.
const changedPerUpload = 5

// libraryAfter is bigLibrary after step syncs of reading: each step read
// chapter 16 of changedPerUpload more manga (manga 0-4 at step 1, 5-9 at
// step 2...), so step k differs from step k-1 in changedPerUpload manga.
func libraryAfter(step int) []byte {
	b := tachibktest.Backup{Preferences: true, Sources: []tachibktest.Source{{Name: pillName, ID: pillSource}}}
	for i := range 5000 {
		read := 15
		if i < step*changedPerUpload {
			read = 16
		}
		m := tachibktest.Manga{Source: pillSource, URL: fmt.Sprintf("/manga/%d/series-%d", 1000+i, i), Title: fmt.Sprintf("Series %d", i),
			Fork: i%3 == 0, LastModifiedAt: 1780000000, Version: 3}
		for c := 1; c <= 30; c++ {
			url := fmt.Sprintf("/chapters/%d-%d", i, c)
			m.Chapters = append(m.Chapters, tachibktest.Chapter{URL: url, Name: fmt.Sprintf("Chapter %d", c), Read: c <= read, Number: float32(c),
				DateFetch: 1700000000000, LastModifiedAt: 1780000000, Version: 2})
			if c <= read {
				m.History = append(m.History, tachibktest.History{URL: url, LastRead: int64(1760000000000 + c)})
			}
		}
		b.Manga = append(b.Manga, m)
	}
	return b.Proto()
}

// bareDecode is the reference: the library decoded into Mihon's backup
// models (backup.proto's Backup message, as a client's restore reads it),
// keeping nothing else. It is the least a server that reads the library
// must do.
func bareDecode(tb testing.TB, all []byte) int {
	m, err := backuppb.Unmarshal(backuppb.MustLoad().Backup, all)
	if err != nil {
		tb.Fatal(err)
	}
	n := m.Get(m.Descriptor().Fields().ByNumber(1)).List().Len()
	if n != 5000 {
		tb.Fatalf("%d manga", n)
	}
	return n
}

// walk is a lighter figure beside it: a protowire walk of every
// top-level field and every field of each manga, decoding no value.
func walk(tb testing.TB, all []byte) int {
	n := 0
	for len(all) > 0 {
		num, typ, k := protowire.ConsumeTag(all)
		all = all[k:]
		if num == 1 && typ == protowire.BytesType {
			msg, k := protowire.ConsumeBytes(all)
			for len(msg) > 0 {
				fn, ft, j := protowire.ConsumeTag(msg)
				msg = msg[j:]
				msg = msg[protowire.ConsumeFieldValue(fn, ft, msg):]
			}
			all = all[k:]
			n++
			continue
		}
		all = all[protowire.ConsumeFieldValue(num, typ, all):]
	}
	if n != 5000 {
		tb.Fatalf("%d manga", n)
	}
	return n
}

// upload PUTs lib with key and fails on anything but 200.
func upload(tb testing.TB, e *env, key string, lib []byte) {
	resp, body := e.call(http.MethodPut, "/api/sync/content", "", key, bytes.NewReader(lib), nil)
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("PUT: %d %s", resp.StatusCode, body)
	}
}

// BenchmarkSyncUpload5000 is a v1 upload of the 5,000-manga library
// through HTTP (read, sealed, stored and read in), measured in one run
// against the bare decode of the same bytes:
//   - first_ms: a Reader's first upload, every manga read in (the limits
//     lifted, so all 5,000 favourites become bookmarks in it);
//   - steady_ms: the uploads after it, each with changedPerUpload manga
//     read one chapter further (what a phone sends on a chapter read);
//   - same_ms: an upload of the very bytes stored (an app start);
//   - decode_ms: the quickest bareDecode of the same bytes in the run
//     (into Mihon's backup models), and the ratios to it;
//   - walk_ms: the quickest protowire walk of them, decoding no value (a
//     lighter figure, shown beside it);
//   - peak_rss_MB: of a process doing one first upload.
func BenchmarkSyncUpload5000(b *testing.B) {
	e := newEnv(b, noPace)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 100000, MaxBookmarks: 5000, MaxNeverRead: 100000})
	lib := bigLibrary()
	var first, steady, same time.Duration
	// The reference is the quickest bare decode seen in the run, before
	// the uploads and between them (a decode right after an upload shares
	// the cores with its garbage collection and PostgreSQL's writes).
	decode, walked := time.Duration(1<<63-1), time.Duration(1<<63-1)
	bare := func() {
		for range 3 {
			t0 := time.Now()
			bareDecode(b, lib)
			decode = min(decode, time.Since(t0))
			t0 = time.Now()
			walk(b, lib)
			walked = min(walked, time.Since(t0))
		}
	}
	bare()
	for i := 0; b.Loop(); i++ {
		tok, _ := e.reader(fmt.Sprintf("30000000000000%04d", i))
		key := e.syncKey(tok)
		t0 := time.Now()
		upload(b, e, key, lib)
		first += time.Since(t0)
		next := libraryAfter(1)
		t0 = time.Now()
		upload(b, e, key, next)
		steady += time.Since(t0)
		t0 = time.Now()
		upload(b, e, key, next)
		same += time.Since(t0)
		bare()
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(first), "first_ms")
	b.ReportMetric(ms(steady), "steady_ms")
	b.ReportMetric(ms(same), "same_ms")
	b.ReportMetric(float64(decode.Microseconds())/1000, "decode_ms")
	b.ReportMetric(float64(walked.Microseconds())/1000, "walk_ms")
	b.ReportMetric(float64(first)/n/float64(decode), "first_x_decode")
	b.ReportMetric(float64(steady)/n/float64(decode), "steady_x_decode")
	b.ReportMetric(float64(same)/n/float64(decode), "same_x_decode")
	b.ReportMetric(peakRSS(b, "upload"), "peak_rss_MB")
	b.ReportMetric(float64(len(lib))/(1<<20), "library_MiB")
}

// BenchmarkSyncDecode5000 is the reference: the same bytes decoded into
// Mihon's backup models (bareDecode).
func BenchmarkSyncDecode5000(b *testing.B) {
	lib := bigLibrary()
	b.SetBytes(int64(len(lib)))
	b.ResetTimer()
	for range b.N {
		bareDecode(b, lib)
	}
	b.StopTimer()
	b.ReportMetric(peakRSS(b, "decode"), "peak_rss_MB")
}

// BenchmarkPhoneReadToProgress: a phone holding the 5,000-manga library
// reads one more chapter and syncs (GET, merge, PUT, as TachiyomiSY does);
// the time from the sync's start until the Reader's Progress shows the
// chapter, median and max over the run. Progress moves inside the PUT,
// so this is the phone's whole sync.
func BenchmarkPhoneReadToProgress(b *testing.B) {
	e := newEnv(b, noPace)
	tok, reader := e.reader("300000000000000002")
	key := e.syncKey(tok)
	lib, err := syncclient.Decode(bigLibrary())
	if err != nil {
		b.Fatal(err)
	}
	p := &syncclient.V1{Host: e.srv.URL, Key: key, Now: e.clock.Now, Local: lib}
	e.sync(p)
	ref := e.series("/manga/1000/series-0")
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		ch := &p.Local.Manga[0].Chapters[15+i%15]
		e.clock.Add(time.Minute)
		ch.Read, ch.Version, ch.LastModifiedAt = true, ch.Version+1, e.clock.Now().Unix()
		start := time.Now() // wall time on purpose: the delay is measured
		e.sync(p)
		took = append(took, time.Since(start))
		if n, _ := e.progress(reader, ref); n != strconv.Itoa(16+i%15) && i < 15 {
			b.Fatalf("Progress %s after reading %d", n, 16+i%15)
		}
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(took[len(took)/2].Seconds(), "median_s")
	b.ReportMetric(took[len(took)-1].Seconds(), "max_s")
	b.ReportMetric(15*60, "anilist_pull_s")
}

// peakRSS runs one pass of the named work in a fresh copy of the test
// binary and returns its peak resident memory, in MB.
func peakRSS(b *testing.B, work string) float64 {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$")
	cmd.Env = append(os.Environ(), "MB_SYNC_RSS_CHILD="+work)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child %s: %v\n%s", work, err, out)
	}
	m := regexp.MustCompile(`peak_rss_kB=(\d+)`).FindSubmatch(out)
	if m == nil {
		b.Skipf("no VmHWM from the child (not Linux?): %s", out)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return float64(kb) / 1024
}

// TestRSSChild is the child of peakRSS; it does nothing in a normal run.
// Both works build the library first, so the bytes held are the same.
func TestRSSChild(t *testing.T) {
	work := os.Getenv("MB_SYNC_RSS_CHILD")
	if work == "" {
		t.Skip("only run as peakRSS's child")
	}
	lib := bigLibrary()
	switch work {
	case "upload":
		e := newEnv(t, noPace)
		tok, _ := e.reader("300000000000000003")
		upload(t, e, e.syncKey(tok), lib)
	case "decode":
		bareDecode(t, lib)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	if m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status); m != nil {
		fmt.Printf("peak_rss_kB=%s\n", m[1])
	}
}

// BenchmarkReadElsewhereToV1Device is issue 43's "web/userscript read →
// shown read on the device" for a stable (v1) phone holding the
// 5,000-manga library, every favourite bookmarked: 20 manga read
// elsewhere two chapters past what the phone holds read; the share of
// those chapters the phone shows read after its next sync (its first GET
// since, target 100%), and the server's cost of that GET (the library
// with the reads marked) against a GET with nothing read elsewhere, in
// the same run.
func BenchmarkReadElsewhereToV1Device(b *testing.B) {
	const read = 20
	e := newEnv(b, noPace)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 100000, MaxBookmarks: 5000, MaxNeverRead: 100000})
	var shown, want int
	var marked, plain time.Duration
	get := func(key string) (time.Duration, []byte) {
		t0 := time.Now()
		resp, body := e.call(http.MethodGet, "/api/sync/content", "", key, nil, nil)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET: %d", resp.StatusCode)
		}
		return time.Since(t0), body
	}
	for i := 0; b.Loop(); i++ {
		tok, reader := e.reader(fmt.Sprintf("31000000000000%04d", i))
		key := e.syncKey(tok)
		lib, err := syncclient.Decode(bigLibrary())
		if err != nil {
			b.Fatal(err)
		}
		p := &syncclient.V1{Host: e.srv.URL, Key: key, Now: e.clock.Now, Local: lib}
		e.sync(p)
		d, stored := get(key)
		plain += d
		e.clock.Add(time.Hour)
		for m := range read {
			e.readElsewhere(reader, e.series(p.Local.Manga[m*250].URL), "17")
		}
		d, body := get(key)
		marked += d
		if bytes.Equal(body, stored) {
			b.Fatal("the GET after reads elsewhere is the upload")
		}
		e.sync(p)
		for m := range read {
			for _, c := range p.Local.Manga[m*250].Chapters[15:17] {
				want++
				if c.Read {
					shown++
				}
			}
		}
	}
	b.ReportMetric(100*float64(shown)/float64(want), "shown_next_download_pct")
	b.ReportMetric(float64(marked.Microseconds())/1000/float64(b.N), "get_marked_ms")
	b.ReportMetric(float64(plain.Microseconds())/1000/float64(b.N), "get_plain_ms")
	b.ReportMetric(float64(marked)/float64(plain), "marked_x_plain")
}
