package imports_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/sites/registry"
)

// bigBackup is a 5,000-manga backup (MangaDex and Weeb Central, 30
// chapters each, half read, with history), built once.
var bigBackup = sync.OnceValue(func() []byte {
	const md = 2499283573021220255
	b := tachibktest.Backup{Preferences: true, Sources: []tachibktest.Source{{Name: "MangaDex", ID: md}, {Name: "Weeb Central", ID: 5}}}
	for i := 0; i < 5000; i++ {
		m := tachibktest.Manga{Source: md, URL: fmt.Sprintf("/manga/%08x-4e59-43b7-9365-09675a149a6f", i), Title: fmt.Sprintf("Series %d", i), Fork: i%3 == 0}
		if i%2 == 1 {
			m.Source, m.URL = 5, fmt.Sprintf("/series/01J76XY7E9FNDZ1DBB%08X", i)
		}
		for c := 1; c <= 30; c++ {
			url := fmt.Sprintf("/chapter/%d-%d", i, c)
			m.Chapters = append(m.Chapters, tachibktest.Chapter{URL: url, Name: fmt.Sprintf("Chapter %d", c), Read: c <= 15, Number: float32(c), DateFetch: int64(1700000000000 + c)})
			if c <= 15 {
				m.History = append(m.History, tachibktest.History{URL: url, LastRead: int64(1760000000000 + c)})
			}
		}
		b.Manga = append(b.Manga, m)
	}
	return b.Gzip()
})

// parseAndPlan is the work measured: decode the backup and resolve every
// entry to a Series (no database, no Site reads).
func parseAndPlan(tb testing.TB, raw []byte) int {
	reg, err := registry.New(nil)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := imports.DecodeTachibk(bytes.NewReader(raw), reg)
	if err != nil {
		tb.Fatal(err)
	}
	pl := imports.MakePlan(p, reg)
	return len(pl.Entries)
}

// bareWalk is the reference: gunzip and walk every top-level field and
// every field of each manga with protowire, keeping nothing.
func bareWalk(tb testing.TB, raw []byte) int {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		tb.Fatal(err)
	}
	all, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
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
	return n
}

// peakRSS runs one pass of the named work in a fresh copy of the test
// binary and returns its peak resident memory, in MB.
func peakRSS(b *testing.B, work string) float64 {
	b.Helper()
	file := b.TempDir() + "/backup.tachibk"
	if err := os.WriteFile(file, bigBackup(), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$")
	cmd.Env = append(os.Environ(), "MB_IMPORT_RSS_CHILD="+work, "MB_IMPORT_RSS_FILE="+file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child %s: %v\n%s", work, err, out)
	}
	// The child's own VmHWM: rusage's maxrss would include the parent's
	// memory shared at the fork.
	m := regexp.MustCompile(`peak_rss_kB=(\d+)`).FindSubmatch(out)
	if m == nil {
		b.Skipf("no VmHWM from the child (not Linux?): %s", out)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return float64(kb) / 1024
}

// TestRSSChild is the child of peakRSS; it does nothing in a normal run.
func TestRSSChild(t *testing.T) {
	work := os.Getenv("MB_IMPORT_RSS_CHILD")
	if work == "" {
		t.Skip("only run as peakRSS's child")
	}
	raw, err := os.ReadFile(os.Getenv("MB_IMPORT_RSS_FILE"))
	if err != nil {
		t.Fatal(err)
	}
	switch work {
	case "plan":
		if n := parseAndPlan(t, raw); n != 5000 {
			t.Fatalf("%d entries", n)
		}
	case "walk":
		if n := bareWalk(t, raw); n != 5000 {
			t.Fatalf("%d manga", n)
		}
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	if m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status); m != nil {
		fmt.Printf("peak_rss_kB=%s\n", m[1])
	}
}

// BenchmarkImportPlan5000 decodes and plans a 5,000-entry .tachibk: time
// per import and the peak RSS of a process doing one.
func BenchmarkImportPlan5000(b *testing.B) {
	raw := bigBackup()
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := parseAndPlan(b, raw); n != 5000 {
			b.Fatalf("%d entries", n)
		}
	}
	b.StopTimer()
	b.ReportMetric(peakRSS(b, "plan"), "peak_rss_MB")
	b.ReportMetric(float64(len(raw))/1024, "backup_KiB")
}

// BenchmarkImportWalk5000 is the reference: the bare gunzip and protowire
// walk of the same backup.
func BenchmarkImportWalk5000(b *testing.B) {
	raw := bigBackup()
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := bareWalk(b, raw); n != 5000 {
			b.Fatalf("%d manga", n)
		}
	}
	b.StopTimer()
	b.ReportMetric(peakRSS(b, "walk"), "peak_rss_MB")
}
