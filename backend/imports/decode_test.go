package imports_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
)

func TestDecodeCSVColumnsAndRows(t *testing.T) {
	t.Parallel()
	p, err := imports.DecodeCSV(strings.NewReader("\ufeffName, URL ,Progress,READ_AT\nA,https://x/1,012.50,2026-01-02\nB,https://x/2,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].URL != "https://x/1" || p.Items[0].Number != "12.5" || p.Items[0].ReadAt == nil ||
		p.Items[0].ReadAt.Format("2006-01-02") != "2026-01-02" || p.Items[1].Number != "" {
		t.Fatalf("items %+v", p.Items)
	}
	for _, c := range []struct{ in, says string }{
		{"", "empty"},
		{"title\nx\n", `"url" column`},
		{"url\n", "no rows"},
		{"url,progress\n\"a\"b,1\n", "line 2"},
	} {
		_, err := imports.DecodeCSV(strings.NewReader(c.in))
		if !errors.Is(err, imports.ErrUnreadable) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want ErrUnreadable saying %q", c.in, err, c.says)
		}
	}
}

func TestDecodeBoundsTheItems(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("url\n")
	for i := 0; i <= imports.MaxItems; i++ {
		b.WriteString("u\n")
	}
	if _, err := imports.DecodeCSV(strings.NewReader(b.String())); !errors.Is(err, imports.ErrTooLarge) {
		t.Errorf("CSV of %d rows: %v", imports.MaxItems+1, err)
	}
	if _, err := imports.FromLines(strings.Repeat("u\n", imports.MaxItems+1)); !errors.Is(err, imports.ErrTooLarge) {
		t.Errorf("lines: %v", err)
	}
	if _, err := imports.FromLines(strings.Repeat("u\n", imports.MaxItems)); err != nil {
		t.Errorf("exactly the bound: %v", err)
	}
}

// jsonList is a body of head, then elem as many times as fit in size
// bytes, comma-separated, then tail.
func jsonList(head, elem, tail string, size int) []byte {
	n := (size - len(head) - len(tail)) / (len(elem) + 1)
	b := make([]byte, 0, size)
	b = append(b, head...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, elem...)
	}
	return append(b, tail...)
}

func TestDecodeJSONBoundsTheItems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		head, elem string
		fits       bool // whether exactly MaxItems elements decode
	}{
		{`{"urls":[`, `""`, true},
		{`{"urls":[`, `"https://mangapill.com/manga/2"`, true},
		{`{"version":1,"bookmarks":[`, `{}`, true},
		{`{"version":1,"bookmarks":[`, `{"url":"u","progress_number":"2"}`, true},
		{`{"bookmarks":[`, `{}`, false}, // the list is counted before the missing version is named
		{`{"URLs":[`, `""`, true},       // keys match as encoding/json matches them
	} {
		var body []string
		for i := 0; i <= imports.MaxItems; i++ {
			body = append(body, c.elem)
		}
		list := strings.Join(body, ",")
		if _, err := imports.DecodeJSON(strings.NewReader(c.head + list + "]}")); !errors.Is(err, imports.ErrTooLarge) {
			t.Errorf("%s %d x %s: %v, want ErrTooLarge", c.head, imports.MaxItems+1, c.elem, err)
		}
		if !c.fits {
			continue
		}
		p, err := imports.DecodeJSON(strings.NewReader(c.head + list[len(c.elem)+1:] + "]}"))
		if err != nil || len(p.Items)+len(p.Unsupported) != imports.MaxItems {
			t.Errorf("%s exactly %d x %s: %v", c.head, imports.MaxItems, c.elem, err)
		}
	}
}

// TestDecodeJSONRefusesHugeLists runs alone (no t.Parallel): it reads the
// process's allocation counter.
func TestDecodeJSONRefusesHugeLists(t *testing.T) {
	for _, c := range []struct{ name, head, elem string }{
		{"32 MiB of {} bookmarks", `{"version":1,"bookmarks":[`, `{}`},
		{`32 MiB of "" urls`, `{"urls":[`, `""`},
	} {
		body := jsonList(c.head, c.elem, "]}", imports.MaxBodyBytes)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := imports.DecodeJSON(bytes.NewReader(body))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, imports.ErrTooLarge) || !strings.Contains(err.Error(), "more than 10000 Series") {
			t.Errorf("%s: %v, want the too-many error", c.name, err)
		}
		// Gigabytes when the whole list was decoded before it was counted.
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Errorf("%s: %d MiB allocated", c.name, n>>20)
		}
	}
}

func TestDecodeCSVBoundsTheFields(t *testing.T) {
	t.Parallel()
	commas := strings.Repeat(",", imports.MaxCSVFields-1)
	quoted := `"` + strings.Repeat(",", 5*imports.MaxCSVFields) + `"`
	for _, ok := range []string{
		"url" + commas + "\nhttps://x/1" + commas + "\n",                       // exactly the bound
		"url,note\nhttps://x/1," + quoted + "\n",                               // commas within quotes
		"url,note\nhttps://x/1,\"a\"\"" + strings.Repeat(",\n", 2000) + "\"\n", // and lines, and an escaped quote
	} {
		if p, err := imports.DecodeCSV(strings.NewReader(ok)); err != nil || len(p.Items) != 1 {
			t.Errorf("%.40q: %v", ok, err)
		}
	}
	for _, c := range []struct{ in, says string }{
		{"url," + commas + "\nhttps://x/1\n", "line 1 of the CSV has more than 1000 fields"},
		{"url\nhttps://x/1\n\n" + quoted + ",\nhttps://x/2," + commas + "\n", "line 5"},
	} {
		_, err := imports.DecodeCSV(strings.NewReader(c.in))
		if !errors.Is(err, imports.ErrTooLarge) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%.40q: %v, want ErrTooLarge saying %q", c.in, err, c.says)
		}
	}
}

// TestDecodeCSVRefusesHugeRows runs alone (no t.Parallel): it reads the
// process's allocation counter.
func TestDecodeCSVRefusesHugeRows(t *testing.T) {
	for _, c := range []struct{ name, head string }{
		{"a header of 32 MiB of commas", "url"},
		{"a row of 32 MiB of commas", "url\nhttps://x/1"},
	} {
		body := append([]byte(c.head), bytes.Repeat([]byte{','}, imports.MaxBodyBytes-len(c.head))...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := imports.DecodeCSV(bytes.NewReader(body))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, imports.ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", c.name, err)
		}
		// Gigabytes when encoding/csv built the whole row.
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Errorf("%s: %d MiB allocated", c.name, n>>20)
		}
	}
}

func TestDecodeByContentType(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	backup := tachibktest.Backup{Sources: []tachibktest.Source{{Name: "mangapill", ID: 3}},
		Manga: []tachibktest.Manga{{Source: 3, URL: "/manga/2/one-piece"}}}.Gzip()
	cases := []struct {
		ct   string
		body []byte
		kind string
	}{
		{"application/json; charset=utf-8", []byte(`{"urls":["https://mangapill.com/manga/2"]}`), imports.KindURLs},
		{"application/json", []byte(`{"mangadex_list":"https://mangadex.org/list/0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e/reading"}`), imports.KindMangaDexList},
		{"application/json", []byte(`{"version":1,"bookmarks":[{"url":"https://mangapill.com/manga/2","progress_number":"3"}]}`), imports.KindJSON},
		{"text/csv", []byte("url\nhttps://mangapill.com/manga/2\n"), imports.KindCSV},
		{"application/gzip", backup, imports.KindTachibk},
		{"application/octet-stream", backup, imports.KindTachibk},
	}
	for _, c := range cases {
		p, err := imports.Decode(c.ct, c.body, reg)
		if err != nil || p.Kind != c.kind {
			t.Errorf("%s: %+v %v", c.ct, p, err)
		}
	}
	if p, _ := imports.Decode("application/gzip", backup, reg); len(p.Items) != 1 || p.Items[0].URL != "https://mangapill.com/manga/2/one-piece" {
		t.Errorf("tachibk URL: %+v", p.Items)
	}
	if _, err := imports.Decode("text/plain", []byte("x"), reg); !errors.Is(err, imports.ErrUnsupportedType) {
		t.Errorf("text/plain: %v", err)
	}
}

func TestListID(t *testing.T) {
	t.Parallel()
	const id = "0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e"
	for _, ok := range []string{"https://mangadex.org/list/" + id, "https://www.mangadex.org/list/" + strings.ToUpper(id) + "/my-list", " http://mangadex.org/list/" + id + "?x=1 "} {
		if got, good := imports.ListID(ok); !good || got != id {
			t.Errorf("%q: %q %v", ok, got, good)
		}
	}
	for _, bad := range []string{"https://mangadex.org/title/" + id, "https://evil.example/list/" + id, "https://mangadex.org/list/not-a-uuid", "javascript:alert(1)", "https://mangadex.org.evil.example/list/" + id} {
		if _, good := imports.ListID(bad); good {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzDecodeCSV(f *testing.F) {
	f.Add([]byte("url,progress,read_at\nhttps://mangapill.com/manga/2,3,2026-01-01\n"))
	f.Add([]byte("url\n\"a\nb\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := imports.DecodeCSV(bytes.NewReader(data))
		checkParsed(t, p, err)
	})
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"urls":["https://mangapill.com/manga/2"]}`))
	f.Add([]byte(`{"version":1,"bookmarks":[{"url":"u","progress_number":"1.5","progress_read_at":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"mangadex_list":"https://mangadex.org/list/0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := imports.DecodeJSON(bytes.NewReader(data))
		checkParsed(t, p, err)
	})
}

func FuzzDecodeTachibk(f *testing.F) {
	reg, err := registry.New(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tachibktest.Backup{Sources: []tachibktest.Source{{Name: "MangaDex", ID: 1}},
		Manga: []tachibktest.Manga{{Source: 1, URL: "/manga/x", Chapters: []tachibktest.Chapter{{URL: "/c", Read: true, Number: 2}}}}}.Gzip())
	f.Add(tachibktest.Backup{LegacySources: []tachibktest.Source{{Name: "MangaPill", ID: 3}},
		Manga: []tachibktest.Manga{{Source: 3, URL: "/manga/2/x", Tracking: []tachibktest.Track{{SyncID: 7, MediaID: 9, URL: "https://www.mangaupdates.com/series/7cyaozt"}},
			Merged: []tachibktest.Merged{{URL: "/manga/3/y", SourceID: 3}}}}}.Gzip())
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := imports.DecodeTachibk(bytes.NewReader(data), reg)
		checkParsed(t, p, err)
		if err == nil {
			imports.MakePlan(p, reg) // the resolver takes whatever the decoder gives
		}
	})
}

// checkParsed holds a decoder's answer to its contract: an error of a
// known kind and nothing else, or items within the bound with valid
// Progress numbers.
func checkParsed(t *testing.T, p *imports.Parsed, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, imports.ErrUnreadable) && !errors.Is(err, imports.ErrTooLarge) {
			t.Fatalf("an error of no known kind: %v", err)
		}
		if p != nil {
			t.Fatal("an error with a result")
		}
		return
	}
	if len(p.Items)+len(p.Unsupported) > imports.MaxItems {
		t.Fatalf("%d items past the bound", len(p.Items)+len(p.Unsupported))
	}
	for _, it := range p.Items {
		if it.URL == "" {
			t.Fatal("an item without a URL")
		}
		for _, id := range it.IDs {
			if again, ok := sites.NormalizeID(id.Kind, id.Value); !ok || again != id {
				t.Fatalf("id %+v is not normalised", id)
			}
		}
		if it.Number != "" && strings.ContainsAny(it.Number, "-e+ ") {
			t.Fatalf("number %q", it.Number)
		}
	}
}
