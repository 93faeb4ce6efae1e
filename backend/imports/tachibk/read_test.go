package tachibk_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/imports/tachibk/tachibktest"
)

const mangadexID = 2499283573021220255

func sample() tachibktest.Backup {
	return tachibktest.Backup{
		Preferences: true,
		Sources:     []tachibktest.Source{{Name: "MangaDex", ID: mangadexID}, {Name: "Some Other Source", ID: 77}},
		Manga: []tachibktest.Manga{
			{Source: mangadexID, URL: "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f", Title: "Frieren", Fork: true,
				Chapters: []tachibktest.Chapter{
					{URL: "/chapter/c1", Name: "Ch. 1", Read: true, Number: 1, DateFetch: 1000},
					{URL: "/chapter/c12", Name: "Ch. 12.5", Read: true, Number: 12.5, DateFetch: 2000},
					{URL: "/chapter/c13", Name: "Ch. 13", Read: false, Number: 13, DateFetch: 3000},
				},
				History: []tachibktest.History{{URL: "/chapter/c1", LastRead: 5}, {URL: "/chapter/c12", LastRead: 1764547200000}}},
			{Source: 77, URL: "/series/x", Title: "Dropped", Favorite: tachibktest.Bool(false)},
			{Source: 77, URL: "/series/y", Title: "Kept", Favorite: tachibktest.Bool(true),
				Chapters: []tachibktest.Chapter{{URL: "/c/0", Read: true, Number: 0, DateFetch: 9}}},
		},
	}
}

func TestReadTakesTheFieldsAnImportNeeds(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string][]byte{"gzip": sample().Gzip(), "bare": sample().Proto()} {
		b, err := tachibk.Read(bytes.NewReader(raw), tachibk.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(b.Sources) != 2 || b.Sources[0] != (tachibk.Source{Name: "MangaDex", ID: mangadexID}) {
			t.Fatalf("%s: sources %+v", name, b.Sources)
		}
		if len(b.Manga) != 3 {
			t.Fatalf("%s: %d manga", name, len(b.Manga))
		}
		m := b.Manga[0]
		if m.Source != mangadexID || m.URL != "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f" || m.Title != "Frieren" || !m.Favorite {
			t.Errorf("%s: manga %+v", name, m)
		}
		// The highest read chapter, not the highest chapter; its read time
		// from its own history entry.
		if m.Read.Number != 12.5 || m.Read.URL != "/chapter/c12" || m.ReadAt != 1764547200000 {
			t.Errorf("%s: read %+v at %d", name, m.Read, m.ReadAt)
		}
		if b.Manga[1].Favorite {
			t.Errorf("%s: favorite=false read as true", name)
		}
		if k := b.Manga[2]; !k.Favorite || k.Read.Number != 0 || k.ReadAt != 0 {
			t.Errorf("%s: a chapter numbered 0 counted as Progress: %+v", name, k)
		}
	}
}

func TestReadAtFallsBackToDateFetch(t *testing.T) {
	t.Parallel()
	raw := tachibktest.Backup{Manga: []tachibktest.Manga{{Source: 1, URL: "/m",
		Chapters: []tachibktest.Chapter{{URL: "/c", Read: true, Number: 3, DateFetch: 4242}}}}}.Gzip()
	b, err := tachibk.Read(bytes.NewReader(raw), tachibk.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Manga[0].ReadAt != 4242 {
		t.Errorf("read_at %d, want the chapter's dateFetch", b.Manga[0].ReadAt)
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// gzRepeat gzips head followed by unit n times: a few KB of gzip for
// megabytes of repeated entries.
func gzRepeat(head, unit []byte, n int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(head)
	per := max(1, 64<<10/len(unit))
	chunk := bytes.Repeat(unit, per)
	for ; n >= per; n -= per {
		_, _ = zw.Write(chunk)
	}
	_, _ = zw.Write(bytes.Repeat(unit, n))
	_ = zw.Close()
	return buf.Bytes()
}

// entry is a top-level field num holding msg.
func entry(num protowire.Number, msg []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), msg)
}

// allocated is how many bytes fn allocates. The process's counter is
// read, so a test calling it runs alone (not in parallel).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadRefusesHostileFiles runs alone (no t.Parallel): it reads the
// process's allocation counter.
func TestReadRefusesHostileFiles(t *testing.T) {
	good := sample().Gzip()
	absurd := protowire.AppendTag(nil, 1, protowire.BytesType)
	absurd = protowire.AppendVarint(absurd, 1<<40)
	skippedAbsurd := protowire.AppendTag(nil, 104, protowire.BytesType)
	skippedAbsurd = protowire.AppendVarint(skippedAbsurd, 1<<62)
	inner := protowire.AppendTag(nil, 16, protowire.BytesType)
	inner = protowire.AppendVarint(inner, 1<<30) // a chapter longer than its manga
	badManga := protowire.AppendTag(nil, 1, protowire.BytesType)
	badManga = protowire.AppendBytes(badManga, inner)
	group := protowire.AppendTag(nil, 5, protowire.StartGroupType)
	// Two million empty sources (AA 06 00): 6 MiB in about 6 KB of gzip.
	emptySource := entry(101, nil)
	manySources := gzRepeat(nil, emptySource, 2<<20)
	manyLegacySources := gzRepeat(nil, entry(100, nil), 2<<20) // the legacy list counts the same
	// Twenty manga of a 1 MiB title each: 20 MiB of text to keep.
	longTitles := gzRepeat(nil, entry(1, protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), bytes.Repeat([]byte{'a'}, 1<<20))), 20)
	cases := []struct {
		name string
		body []byte
		want error
		says string
	}{
		{"empty", nil, tachibk.ErrMalformed, "empty"},
		{"truncated gzip", good[:len(good)/2], tachibk.ErrMalformed, "truncated"},
		{"gzip header only", good[:4], tachibk.ErrMalformed, "gzip"},
		{"damaged checksum", append(append([]byte(nil), good[:len(good)-8]...), 0, 0, 0, 0, 0, 0, 0, 0), tachibk.ErrMalformed, "gzip"},
		{"absurd length", gz(absurd), tachibk.ErrTooLarge, "MiB"},
		{"absurd skipped length", gz(skippedAbsurd), tachibk.ErrTooLarge, "bytes"},
		{"absurd inner length", gz(badManga), tachibk.ErrMalformed, "damaged"},
		{"group at top level", gz(group), tachibk.ErrMalformed, "wire type"},
		{"junk", []byte("\x00\xff\xfe binary junk that is not a backup at all"), tachibk.ErrMalformed, ""},
		{"text", []byte("url\nhttps://mangadex.org/title/x\n"), tachibk.ErrMalformed, ""},
		{"many sources", manySources, tachibk.ErrTooLarge, "more than 10000 sources"},
		{"many legacy sources", manyLegacySources, tachibk.ErrTooLarge, "more than 10000 sources"},
		{"long titles", longTitles, tachibk.ErrTooLarge, "more than 16 MiB"},
	}
	for _, c := range cases {
		if len(c.body) > 64<<10 {
			t.Fatalf("%s: %d bytes of gzip", c.name, len(c.body))
		}
		var err error
		// Well over what a refusal needs (the entries read before it), well
		// under the hundreds of MiB an unbounded list reaches.
		if n := allocated(func() { _, err = tachibk.Read(bytes.NewReader(c.body), tachibk.Limits{}) }); n > 64<<20 {
			t.Errorf("%s: %d MiB allocated", c.name, n>>20)
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
			continue
		}
		var te *tachibk.Error
		if !errors.As(err, &te) || !strings.Contains(te.Reason, c.says) || strings.Contains(te.Reason, "tachibk") {
			t.Errorf("%s: %q is no *tachibk.Error whose Reason says %q without the package prefix", c.name, err, c.says)
		}
	}
}

// zeros is an endless stream of zero bytes, as little memory as it gets.
type zeros struct{ left int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > z.left {
		p = p[:z.left]
	}
	clear(p)
	z.left -= int64(len(p))
	return len(p), nil
}

func TestReadRefusesAZipBomb(t *testing.T) {
	t.Parallel()
	// Two skipped fields (preferences) of 150 MiB of zeros each, each
	// under the bound: under 1 MiB of gzip that inflates past 256 MiB.
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	for i := 0; i < 2; i++ {
		head := protowire.AppendTag(nil, 104, protowire.BytesType)
		head = protowire.AppendVarint(head, 150<<20)
		_, _ = zw.Write(head)
		if _, err := io.Copy(zw, &zeros{left: 150 << 20}); err != nil {
			t.Fatal(err)
		}
	}
	_ = zw.Close()
	if buf.Len() > 1<<20 {
		t.Fatalf("bomb is %d bytes", buf.Len())
	}
	_, err := tachibk.Read(&buf, tachibk.Limits{})
	if !errors.Is(err, tachibk.ErrTooLarge) || !strings.Contains(err.Error(), "256 MiB") {
		t.Fatalf("err %v, want ErrTooLarge naming 256 MiB", err)
	}
}

func TestReadBoundsTheManga(t *testing.T) {
	t.Parallel()
	b := tachibktest.Backup{}
	for i := 0; i < 4; i++ {
		b.Manga = append(b.Manga, tachibktest.Manga{Source: 1, URL: "/m"})
	}
	_, err := tachibk.Read(bytes.NewReader(b.Gzip()), tachibk.Limits{MaxManga: 3})
	if !errors.Is(err, tachibk.ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	if _, err := tachibk.Read(bytes.NewReader(b.Gzip()), tachibk.Limits{MaxManga: 4}); err != nil {
		t.Fatalf("four manga under a bound of four: %v", err)
	}
}

func TestReadBoundsTheSources(t *testing.T) {
	t.Parallel()
	b := tachibktest.Backup{Sources: []tachibktest.Source{{Name: "a", ID: 1}, {Name: "b", ID: 2}, {Name: "c", ID: 3}}}
	if _, err := tachibk.Read(bytes.NewReader(b.Gzip()), tachibk.Limits{MaxSources: 2}); !errors.Is(err, tachibk.ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	if _, err := tachibk.Read(bytes.NewReader(b.Gzip()), tachibk.Limits{MaxSources: 3}); err != nil {
		t.Fatalf("three sources under a bound of three: %v", err)
	}
}

// TestReadKeepsNoListOfHistory reads a manga of five million empty history
// entries (15 MiB, about 15 KB of gzip) around its read chapter's own:
// the read time is found and no list of entries is built. It runs alone
// (no t.Parallel): it reads the process's allocation counter.
func TestReadKeepsNoListOfHistory(t *testing.T) {
	read := tachibktest.Manga{Source: 1, URL: "/m",
		Chapters: []tachibktest.Chapter{{URL: "/c/2", Read: true, Number: 2, DateFetch: 7}},
		History:  []tachibktest.History{{URL: "/c/2", LastRead: 4242}}}
	head := tachibktest.Backup{Manga: []tachibktest.Manga{read}}.Proto()
	// head is one manga entry (tag 0x0a, its length, its message) and a
	// category: lengthen the manga by the empty entries appended to it.
	num, typ, n := protowire.ConsumeTag(head)
	msg, m := protowire.ConsumeBytes(head[n:])
	if num != 1 || typ != protowire.BytesType || m < 0 {
		t.Fatalf("the builder's first entry is %d/%d", num, typ)
	}
	emptyHistory := entry(104, nil)
	const count = 5 << 20
	body := protowire.AppendTag(nil, 1, protowire.BytesType)
	body = protowire.AppendVarint(body, uint64(len(msg)+count*len(emptyHistory)))
	body = append(body, msg...)
	raw := gzRepeat(body, emptyHistory, count)
	var b *tachibk.Backup
	var err error
	if n := allocated(func() { b, err = tachibk.Read(bytes.NewReader(raw), tachibk.Limits{}) }); n > 64<<20 {
		t.Errorf("%d MiB allocated for one manga of %d MiB", n>>20, count*len(emptyHistory)>>20)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Manga) != 1 || b.Manga[0].Read.Number != 2 || b.Manga[0].ReadAt != 4242 {
		t.Fatalf("manga %+v", b.Manga)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(sample().Gzip())
	f.Add(sample().Proto())
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := tachibk.Read(bytes.NewReader(data), tachibk.Limits{MaxInflated: 4 << 20, MaxMessage: 1 << 20, MaxManga: 100})
		if err != nil {
			if !errors.Is(err, tachibk.ErrMalformed) && !errors.Is(err, tachibk.ErrTooLarge) {
				t.Fatalf("an error of neither kind: %v", err)
			}
			if b != nil {
				t.Fatal("a refused file returned a backup")
			}
			return
		}
		if len(b.Manga) > 100 {
			t.Fatalf("%d manga past the bound", len(b.Manga))
		}
		for _, m := range b.Manga {
			if m.Read.Number < 0 || m.Read.Number != m.Read.Number {
				t.Fatalf("a read number %v", m.Read.Number)
			}
		}
	})
}
