package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

// importEnv is a readerEnv whose server runs imports, on the env's clock
// (the Reader limits' allowance refills on the same clock).
type importEnv struct {
	*readerEnv
	svc *imports.Service
}

func newImportEnv(t *testing.T) *importEnv {
	t.Helper()
	ie := &importEnv{}
	ie.readerEnv = newReaderEnv(t, func(c *api.Config) {
		now := func() time.Time { return ie.now }
		c.Store.SetClock(now)
		svc, err := imports.New(imports.Config{Store: c.Store, Sites: c.Sites, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		ie.svc, c.Imports = svc, svc
	})
	return ie
}

// post sends an import body of contentType and decodes the answer.
func (e *importEnv) post(tok, contentType string, body []byte) (int, client.Import, []byte) {
	e.t.Helper()
	code, _, b := e.doH(tok, "POST", "/api/imports", string(body), http.Header{"Content-Type": {contentType}})
	var j client.Import
	if code == http.StatusAccepted {
		if err := json.Unmarshal(b, &j); err != nil {
			e.t.Fatalf("decode %s: %v", b, err)
		}
	}
	return code, j, b
}

func (e *importEnv) get(tok string, id int64) client.Import {
	e.t.Helper()
	code, b := e.do(tok, "GET", fmt.Sprintf("/api/imports/%d", id), "")
	if code != http.StatusOK {
		e.t.Fatalf("get import: %d %s", code, b)
	}
	var j client.Import
	if err := json.Unmarshal(b, &j); err != nil {
		e.t.Fatal(err)
	}
	return j
}

func (e *importEnv) runOnce() {
	e.t.Helper()
	if err := e.svc.RunOnce(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func mangapillURLs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("https://mangapill.com/manga/%d/series-%d", 1000+i, i)
	}
	return out
}

// An import of 250 new Series: the hourly allowance admits 100 now; 150
// wait in the job and resume as the allowance refills on the clock.
func TestImportWaitsForTheHourlyAllowance(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000001")
	body, _ := json.Marshal(map[string]any{"urls": mangapillURLs(250)})
	code, j, raw := e.post(tok, "application/json", body)
	if code != http.StatusAccepted {
		t.Fatalf("post: %d %s", code, raw)
	}
	if j.Kind != "urls" || j.State != "waiting" || j.Total != 250 || j.Added != 100 || j.Waiting != 150 || j.NextAt == nil {
		t.Fatalf("first pass: %+v", j)
	}
	if want := e.now.Add(time.Hour); !j.NextAt.Equal(want) {
		t.Errorf("next_at %v, want %v (an hour's allowance for 100 more)", j.NextAt, want)
	}
	if n := len(listBookmarks(t, e.readerEnv, tok)); n != 100 {
		t.Fatalf("%d bookmarks after the first pass, want 100", n)
	}
	// Nothing is due before next_at.
	e.now = e.now.Add(30 * time.Minute)
	e.runOnce()
	if got := e.get(tok, j.ID); got.Added != 100 || got.Waiting != 150 {
		t.Fatalf("resumed before next_at: %+v", got)
	}
	e.now = e.now.Add(30 * time.Minute)
	e.runOnce()
	got := e.get(tok, j.ID)
	if got.State != "waiting" || got.Added != 200 || got.Waiting != 50 {
		t.Fatalf("after an hour: %+v", got)
	}
	// The Lanes read the first 200 (real Series): they leave the
	// never-read cap (ADR 0018), so the rest may come in.
	storetest.SetSeries(context.Background(), t, e.st, storetest.SeriesSet{LatestNumber: "1", SeenAt: storetest.At(time.Now())})
	e.now = *got.NextAt
	e.runOnce()
	got = e.get(tok, j.ID)
	if got.State != "done" || got.Added != 250 || got.Waiting != 0 || got.FinishedAt == nil || got.NextAt != nil {
		t.Fatalf("after the refill: %+v", got)
	}
	if n := len(listBookmarks(t, e.readerEnv, tok)); n != 250 {
		t.Fatalf("%d bookmarks, want 250", n)
	}
	// The same file twice adds nothing.
	code, again, _ := e.post(tok, "application/json", body)
	if code != http.StatusAccepted || again.State != "done" || again.Added != 0 || again.Already != 250 || again.Waiting != 0 {
		t.Fatalf("second import: %d %+v", code, again)
	}
}

func TestImportTachibkBackup(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000002")
	const md = 2499283573021220255
	readAt := time.Date(2026, 4, 30, 8, 0, 0, 0, time.UTC)
	b := tachibktest.Backup{
		Preferences: true,
		Sources: []tachibktest.Source{{Name: "MangaDex", ID: md}, {Name: "weeb central", ID: 11},
			{Name: "Mangakakalot", ID: 12}, {Name: "Asura Scans", ID: 13}},
		Manga: []tachibktest.Manga{
			{Source: md, URL: "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f", Title: "Frieren", Fork: true,
				Chapters: []tachibktest.Chapter{{URL: "/chapter/x", Read: true, Number: 12.5, DateFetch: 1}, {URL: "/chapter/y", Number: 13}},
				History:  []tachibktest.History{{URL: "/chapter/x", LastRead: readAt.UnixMilli()}}},
			{Source: 11, URL: "/series/01J76XY7E9FNDZ1DBBM6PBJPFK", Title: "One Piece"},
			{Source: 12, URL: "https://www.natomanga.com/manga/solo-leveling", Title: "Solo Leveling"},
			{Source: 13, URL: "/manga/tower", Title: "Tower"},
			{Source: 99, URL: "/x", Title: "Unknown id"},
			{Source: md, URL: "/manga/b1c7c817-4e59-43b7-9365-09675a149a6f", Title: "Dropped", Favorite: tachibktest.Bool(false)},
			{Source: md, URL: "", Title: "No URL"},
		},
	}
	for _, ct := range []string{"application/octet-stream", "application/gzip"} {
		code, j, raw := e.post(tok, ct, b.Gzip())
		if code != http.StatusAccepted {
			t.Fatalf("%s: %d %s", ct, code, raw)
		}
		if ct == "application/gzip" { // the second time: nothing new
			if j.Added != 0 || j.Already != 3 || j.ProgressApplied != 0 {
				t.Fatalf("again: %+v", j)
			}
			continue
		}
		if j.Kind != "tachibk" || j.State != "done" || j.Total != 6 || j.Added != 3 || j.ProgressApplied != 1 || len(j.Unsupported) != 3 {
			t.Fatalf("import: %+v", j)
		}
		reasons := fmt.Sprint(j.Unsupported)
		for _, want := range []string{`Asura Scans: Tower source "Asura Scans" is not one of the Sites`, "source 99 is not one of the Sites", "MangaDex: No URL the backup gives no URL"} {
			if !strings.Contains(reasons, want) {
				t.Errorf("unsupported %s lacks %q", reasons, want)
			}
		}
		if strings.Contains(reasons, "Dropped") {
			t.Errorf("a manga with favorite=false was named: %s", reasons)
		}
	}
	got := map[string]client.Bookmark{}
	for _, bm := range listBookmarks(t, e.readerEnv, tok) {
		got[bm.Site+"/"+bm.SeriesID] = bm
	}
	fr := got["mangadex/a1c7c817-4e59-43b7-9365-09675a149a6f"]
	if fr.Progress == nil || fr.Progress.Number != "12.5" || !fr.Progress.ReadAt.Equal(readAt) {
		t.Errorf("Frieren's Progress %+v, want 12.5 read at %v", fr.Progress, readAt)
	}
	for _, k := range []string{"weebcentral/01J76XY7E9FNDZ1DBBM6PBJPFK", "natomanga/solo-leveling"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no bookmark %s in %v", k, got)
		}
	}
}

func TestImportCSVAndProgressOnlyMovesForward(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000003")
	csv := "Title,URL,progress,read_at\n" +
		"A,https://mangapill.com/manga/2/one-piece,1100,2026-04-01T10:00:00Z\n" +
		"B,https://mangapill.com/chapters/3-10005000/x-chapter-5,,\n" +
		"C,https://example.org/manga/1,3,\n" +
		"D,https://mangapill.com/manga/4,twelve,\n" +
		"E,,7,\n" +
		"F,https://mangapill.com/manga/2,900,2026-04-02\n"
	code, j, raw := e.post(tok, "text/csv", []byte(csv))
	if code != http.StatusAccepted {
		t.Fatalf("post: %d %s", code, raw)
	}
	if j.Kind != "csv" || j.Total != 6 || j.Added != 2 || j.Already != 1 || j.ProgressApplied != 1 || len(j.Unsupported) != 3 {
		t.Fatalf("import: %+v", j)
	}
	reasons := fmt.Sprint(j.Unsupported)
	for _, want := range []string{"not a Site we read", `progress "twelve" is not a chapter number`, "row 6 the row has no URL"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("unsupported %s lacks %q", reasons, want)
		}
	}
	// A later import with a lower number leaves Progress where it is.
	code, j, raw = e.post(tok, "text/csv", []byte("url,progress\nhttps://mangapill.com/manga/2,5\n"))
	if code != http.StatusAccepted || j.ProgressApplied != 0 || j.Already != 1 {
		t.Fatalf("lower: %d %+v %s", code, j, raw)
	}
	for _, bm := range listBookmarks(t, e.readerEnv, tok) {
		if bm.SeriesID == "2" && (bm.Progress == nil || bm.Progress.Number != "1100") {
			t.Errorf("Progress %+v, want 1100 kept", bm.Progress)
		}
	}
}

// The JSON export imports as is: another Reader importing it ends with the
// same bookmarks and Progress; the CSV export reads back too.
func TestExportRoundTrips(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	a, b, c := e.token("300000000000000004"), e.token("300000000000000005"), e.token("300000000000000006")
	csv := "url,progress,read_at\nhttps://mangapill.com/manga/2,10.5,2026-04-01T10:00:00Z\nhttps://weebcentral.com/series/01J76XY7E9FNDZ1DBBM6PBJPFK,,\n" +
		"https://mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f,3,2026-03-01T00:00:00Z\n"
	if code, _, raw := e.post(a, "text/csv", []byte(csv)); code != http.StatusAccepted {
		t.Fatalf("seed: %d %s", code, raw)
	}
	storetest.SetBookmarks(context.Background(), t, e.st, storetest.BookmarkSet{IDs: []string{"2"}, NotifyMode: "off"})
	// A pile bookmark whose thresholds are not the defaults (3 and 7).
	storetest.SetBookmarks(context.Background(), t, e.st, storetest.BookmarkSet{Site: "weebcentral", NotifyMode: "pile", Pile: 12, PileDays: 20})
	// A reading state set by hand travels with the bookmark.
	var aID int64
	if err := e.st.Pool().QueryRow(context.Background(), `SELECT id FROM readers WHERE discord_id = '300000000000000004'`).Scan(&aID); err != nil {
		t.Fatal(err)
	}
	if err := e.st.SetBookmarkState(context.Background(), aID, "mangapill", "2", store.StateOnHold, time.Now()); err != nil {
		t.Fatal(err)
	}
	pileOf := func(discordID string) string {
		t.Helper()
		var out string
		if err := e.st.Pool().QueryRow(context.Background(), `SELECT b.notify_mode || ' ' || b.notify_pile || ' ' || b.notify_pile_days
			FROM bookmarks b JOIN readers r ON r.id = b.reader_id WHERE r.discord_id = $1 AND b.site = 'weebcentral'`, discordID).Scan(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	exportOf := func(tok, format string) []byte {
		code, hdr, body := e.doH(tok, "GET", "/api/export?format="+format, "", nil)
		if code != http.StatusOK {
			t.Fatalf("export %s: %d %s", format, code, body)
		}
		if !strings.Contains(hdr.Get("Content-Disposition"), "attachment") {
			t.Errorf("export %s is no download: %v", format, hdr)
		}
		return body
	}
	rows := func(raw []byte) string {
		var doc imports.Export
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if doc.Version != 1 {
			t.Fatalf("version %d", doc.Version)
		}
		for i := range doc.Bookmarks {
			doc.Bookmarks[i].AddedAt = time.Time{} // the import's own time
		}
		out, _ := json.Marshal(doc.Bookmarks)
		return string(out)
	}
	exported := exportOf(a, "json")
	if code, j, raw := e.post(b, "application/json", exported); code != http.StatusAccepted || j.Kind != "json" || j.Added != 3 || j.ProgressApplied != 2 {
		t.Fatalf("import the export: %d %+v %s", code, j, raw)
	}
	want, got := rows(exported), rows(exportOf(b, "json"))
	if strings.Count(want, `"site"`) != 3 || strings.Count(want, `"notify_mode":"off"`) != 1 ||
		strings.Count(want, `"state":"on_hold"`) != 1 || strings.Count(want, `"state":"reading"`) != 2 || want != got {
		t.Fatalf("round trip:\n%v\n%v", want, got)
	}
	if code, j, raw := e.post(c, "text/csv", exportOf(a, "csv")); code != http.StatusAccepted || j.Added != 3 || j.ProgressApplied != 2 {
		t.Fatalf("import the CSV export: %d %+v %s", code, j, raw)
	}
	if got := rows(exportOf(c, "json")); want != got {
		t.Fatalf("CSV round trip:\n%v\n%v", want, got)
	}
	for _, id := range []string{"300000000000000005", "300000000000000006"} {
		if got := pileOf(id); got != "pile 12 20" {
			t.Errorf("reader %s's pile bookmark after the round trip: %q, want pile 12 20", id, got)
		}
	}
	// bom=1: the CSV for Excel, a UTF-8 byte-order mark its first bytes;
	// it imports back as the plain one does.
	plain := exportOf(a, "csv")
	if bytes.HasPrefix(plain, []byte("\xef\xbb\xbf")) {
		t.Error("the CSV export starts with a byte-order mark though none was asked for")
	}
	excel := exportOf(a, "csv&bom=1")
	if !bytes.Equal(excel, append([]byte("\xef\xbb\xbf"), plain...)) {
		t.Fatalf("bom=1: %q, want EF BB BF and the CSV", excel[:min(len(excel), 40)])
	}
	if !bytes.Equal(exportOf(a, "json&bom=1"), exported) {
		t.Error("bom=1 changed the JSON export (JSON carries no byte-order mark)")
	}
	if code, body := e.do(a, "GET", "/api/export?format=csv&bom=yes", ""); code != http.StatusBadRequest || !strings.Contains(string(body), "bom must be 1") {
		t.Errorf("bom=yes: %d %s", code, body)
	}
	d := e.token("300000000000000007")
	if code, j, raw := e.post(d, "text/csv", excel); code != http.StatusAccepted || j.Added != 3 || j.ProgressApplied != 2 {
		t.Fatalf("import the CSV export for Excel: %d %+v %s", code, j, raw)
	}
	if code, _ := e.do(a, "GET", "/api/export?format=xml", ""); code != http.StatusBadRequest {
		t.Errorf("format=xml: %d", code)
	}
}

func gzipOf(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// Hostile bodies: a clear 400/413/415 with the reason, and no import
// recorded.
func TestImportRefusesHostileBodies(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000007")
	good := tachibktest.Backup{Manga: []tachibktest.Manga{{Source: 2499283573021220255, URL: "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f"}}}.Gzip()
	var million bytes.Buffer
	million.WriteString("url\n")
	for i := 0; i < 1000000; i++ {
		million.WriteString("x\n")
	}
	bombBody := func() []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zeros := make([]byte, 1<<20)
		for i := 0; i < 2; i++ {
			_, _ = zw.Write([]byte{0xc2, 0x06, 0x80, 0x80, 0x80, 0x4b}) // field 104, 150 MiB
			for k := 0; k < 150; k++ {
				_, _ = zw.Write(zeros)
			}
		}
		_ = zw.Close()
		return buf.Bytes()
	}()
	cases := []struct {
		name, ct string
		body     []byte
		code     int
		says     string
	}{
		{"truncated gzip", "application/octet-stream", good[:len(good)-12], 400, "truncated"},
		{"junk", "application/octet-stream", []byte("\x07\x00\xffjunk"), 400, "not a readable Mihon/Tachiyomi backup"},
		{"zip bomb", "application/gzip", bombBody, 413, "256 MiB"},
		{"absurd length", "application/octet-stream", gzipOf([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f}), 413, "MiB"},
		{"a million rows", "text/csv", million.Bytes(), 413, "more than 10000 Series"},
		{"binary junk as CSV", "text/csv", []byte("url\n\xff\xfe\x00\x01junk\n"), 400, "not UTF-8 text"},
		{"no url column", "text/csv", []byte("name\nx\n"), 400, `"url" column`},
		{"bad csv", "text/csv", []byte("url\n\"unterminated\n"), 400, "line"},
		{"not json", "application/json", []byte("{"), 400, "not valid JSON"},
		{"two shapes", "application/json", []byte(`{"urls":["x"],"mangadex_list":"y"}`), 400, "exactly one"},
		{"bad list", "application/json", []byte(`{"mangadex_list":"https://mangadex.org/title/x"}`), 400, "not a MangaDex list URL"},
		{"other version", "application/json", []byte(`{"version":2,"bookmarks":[]}`), 400, `"version" is not 1`},
		{"xml", "application/xml", []byte("<a/>"), 415, "Content-Type"},
		{"over 32 MiB", "text/csv", bytes.Repeat([]byte("a"), 32<<20+1), 413, "32 MiB"},
	}
	for _, c := range cases {
		code, _, raw := e.post(tok, c.ct, c.body)
		if code != c.code {
			t.Errorf("%s: %d %s, want %d", c.name, code, raw, c.code)
			continue
		}
		if msg := errorOf(t, raw); !strings.Contains(msg, c.says) {
			t.Errorf("%s: %q does not say %q", c.name, msg, c.says)
		}
	}
	code, raw := e.do(tok, "GET", "/api/imports", "")
	if code != http.StatusOK || string(raw) != `{"imports":[]}`+"\n" {
		t.Errorf("a refused body left an import: %d %s", code, raw)
	}
	if n := len(listBookmarks(t, e.readerEnv, tok)); n != 0 {
		t.Errorf("a refused body added %d bookmarks", n)
	}
	// Past 1 MiB is fine on this path alone.
	big := "url\n" + strings.Repeat("https://mangapill.com/manga/2/"+strings.Repeat("s", 100)+"\n", 9000)
	if code, j, raw := e.post(tok, "text/csv", []byte(big)); len(big) < 1<<20 || code != http.StatusAccepted || j.Added != 1 || j.Already != 8999 {
		t.Errorf("a 1.2 MiB CSV: %d %+v %.200s", code, j, raw)
	}
	if code, raw := e.do(tok, "POST", "/api/bookmarks", `{"url":"`+strings.Repeat("a", 2<<20)+`"}`); code != http.StatusRequestEntityTooLarge {
		t.Errorf("other paths keep 1 MiB: %d %.100s", code, raw)
	}
}

func TestImportIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	a, b := e.token("300000000000000008"), e.token("300000000000000009")
	code, j, raw := e.post(a, "application/json", []byte(`{"urls":["https://mangapill.com/manga/2"]}`))
	if code != http.StatusAccepted {
		t.Fatalf("%d %s", code, raw)
	}
	if code, _ := e.do(b, "GET", fmt.Sprintf("/api/imports/%d", j.ID), ""); code != http.StatusNotFound {
		t.Errorf("another Reader's import: %d", code)
	}
	code, raw = e.do(b, "GET", "/api/imports", "")
	if code != http.StatusOK || strings.Contains(string(raw), fmt.Sprintf(`"id":%d`, j.ID)) {
		t.Errorf("another Reader lists it: %s", raw)
	}
	code, raw = e.do(a, "GET", "/api/imports", "")
	if code != http.StatusOK || !strings.Contains(string(raw), fmt.Sprintf(`"id":%d`, j.ID)) {
		t.Errorf("the Reader does not list it: %s", raw)
	}
	for _, p := range []string{"/api/imports/0", "/api/imports/x", "/api/imports/-1"} {
		if code, _ := e.do(a, "GET", p, ""); code != http.StatusNotFound {
			t.Errorf("%s: %d", p, code)
		}
	}
}

func TestImportOverTheBookmarkCap(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 100, MaxBookmarks: 3})
	tok := e.token("300000000000000010")
	body, _ := json.Marshal(map[string]any{"urls": mangapillURLs(5)})
	code, j, raw := e.post(tok, "application/json", body)
	if code != http.StatusAccepted || j.State != "done" || j.Added != 3 || j.Waiting != 0 || len(j.Unsupported) != 2 {
		t.Fatalf("%d %+v %s", code, j, raw)
	}
	if !strings.Contains(j.Unsupported[0].Reason, "over the limit: you keep 3 bookmarks") {
		t.Errorf("reason %q", j.Unsupported[0].Reason)
	}
}

// An imported bookmark is added at the import, never at a time the file
// gives: the Reader notices owe a New Chapter only for a Chapter Event
// newer than the bookmark, so chapters out before the import owe nothing.
func TestImportedBookmarkIsAddedAtTheImport(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000011")
	before := time.Now().Add(-time.Minute) // the database's clock, on this machine
	doc := `{"version":1,"bookmarks":[{"site":"mangapill","series_id":"2","title":"","url":"https://mangapill.com/manga/2",` +
		`"latest_number":"9","latest_seen_at":"2020-01-01T00:00:00Z","progress_number":"3","progress_read_at":"2020-01-01T00:00:00Z",` +
		`"notify_mode":"each","added_at":"2020-01-01T00:00:00Z"}]}`
	if code, j, raw := e.post(tok, "application/json", []byte(doc)); code != http.StatusAccepted || j.Added != 1 {
		t.Fatalf("%d %+v %s", code, j, raw)
	}
	code, body := e.do(tok, "GET", "/api/export", "")
	var exp imports.Export
	if err := json.Unmarshal(body, &exp); code != http.StatusOK || err != nil || len(exp.Bookmarks) != 1 {
		t.Fatalf("%d %s %v", code, body, err)
	}
	if b := exp.Bookmarks[0]; b.AddedAt.Before(before) {
		t.Errorf("added_at %v is before the import (%v): the file's time was taken", b.AddedAt, before)
	}
	if b := exp.Bookmarks[0]; b.LatestNumber != nil {
		t.Errorf("the file's Latest Chapter was taken as a Series fact: %v", *b.LatestNumber)
	}
}

// The typed client speaks the same contract.
func TestImportThroughTheClient(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	c, err := client.New(e.srv.URL, e.token("300000000000000012"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	j, err := c.ImportURLs(ctx, []string{"https://mangapill.com/manga/2", "https://example.org/x"})
	if err != nil || j.State != "done" || j.Added != 1 || len(j.Unsupported) != 1 {
		t.Fatalf("%+v %v", j, err)
	}
	got, err := c.GetImport(ctx, j.ID)
	if err != nil || got.ID != j.ID || got.Added != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	list, err := c.Imports(ctx)
	if err != nil || len(list) != 1 || list[0].ID != j.ID {
		t.Fatalf("%+v %v", list, err)
	}
	if _, err := c.GetImport(ctx, j.ID+1); err == nil {
		t.Error("an unknown import answered")
	}
	md, err := c.ImportMangaDexList(ctx, "https://mangadex.org/list/0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e")
	if err != nil || md.Kind != "mangadex_list" || md.State != "running" {
		t.Fatalf("list: %+v %v", md, err)
	}
}
