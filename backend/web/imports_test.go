package web_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// postFile posts the import form with a file (and the csrf field when
// csrf is not empty).
func (f *fixture) postFile(t testing.TB, c *http.Client, csrf, name string, body []byte) answer {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if csrf != "" {
		_ = mw.WriteField("csrf", csrf)
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(body)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", f.srv.URL+"/import", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return f.do(t, c, req)
}

func (f *fixture) importsOf(t testing.TB, readerID int64) []store.ImportJob {
	t.Helper()
	list, err := f.st.ListImports(context.Background(), readerID)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// Each line of "Add a Series" gets its own answer on the library.
func TestLibraryAddSeriesAnswersEachLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	f.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 1, MaxBookmarks: 5000})
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	lines := "https://mangapill.test/series/77\n\n  https://mangapill.test/series/2  \nhttps://example.org/manga/1\nhttps://mangapill.test/series/78\n"
	a := f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {lines}})
	loc := a.header.Get("Location")
	if a.code != http.StatusSeeOther || !regexp.MustCompile(`^/\?added=\d+$`).MatchString(loc) {
		t.Fatalf("add: %d %q %s", a.code, loc, a.body)
	}
	page := f.get(t, c, loc).body
	for _, want := range []string{
		`<li data-result="added">https://mangapill.test/series/77: added</li>`,
		`<li data-result="already">https://mangapill.test/series/2: already there</li>`,
		`<li data-result="unsupported">https://example.org/manga/1: not a Site we read`,
		// The configured allowance (1), not the default's 100; no
		// never-read cap is set, so none is named.
		`<li data-result="limit">https://mangapill.test/series/78: over the limit of 1 new Series an hour;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("library lacks %q", want)
		}
	}
	if !strings.Contains(page, `data-series-id="77"`) {
		t.Error("the added Series is not in the library")
	}
	// Another Reader's answers are not shown.
	other := f.login(t, f.ownerToken)
	if strings.Contains(f.get(t, other, loc).body, "add-results") {
		t.Error("another Reader sees the answers")
	}
	// Without csrf nothing is added.
	if a := f.postForm(t, c, "/library/add", url.Values{"urls": {"https://mangapill.test/series/90"}}); a.code != http.StatusForbidden {
		t.Errorf("no csrf: %d", a.code)
	}
	if n := len(f.importsOf(t, 2)); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}
}

// The import pages name the Reader limits in force, both of those that
// hold a waiting entry: the hourly allowance of new Series and the cap on
// bookmarks of Series never read (ADR 0018), never the defaults' numbers.
func TestImportPagesNameTheLimitsInForce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	// The Reader keeps one bookmark of a Series never read (40): one
	// more fits under a cap of 2, the next waits on it.
	f.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 7, MaxBookmarks: 5000, MaxNeverRead: 2})
	c := f.login(t, f.readerToken)
	if page := f.get(t, c, "/import").body; !strings.Contains(page, "New Series are added 7 an hour, and at most 2 of your bookmarks may be of Series the server has never read a chapter of;") {
		t.Errorf("the import page does not name the limits in force:\n%s", page)
	}
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {"https://mangapill.test/series/81\nhttps://mangapill.test/series/82"}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("add: %d %s", a.code, a.body)
	}
	lib := f.get(t, c, a.header.Get("Location")).body
	for _, want := range []string{
		`<li data-result="added">https://mangapill.test/series/81: added</li>`,
		`<li data-result="limit">https://mangapill.test/series/82: over the limit of 7 new Series an hour or of 2 bookmarks of Series the server has never read a chapter of;`,
	} {
		if !strings.Contains(lib, want) {
			t.Errorf("library lacks %q:\n%s", want, lib)
		}
	}
	job := f.get(t, c, "/import/"+strings.TrimPrefix(a.header.Get("Location"), "/?added=")).body
	// From a filtered, sorted page: back there, with the answers.
	a = f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {"https://mangapill.test/series/81"}, "back": {"/?q=x&sort=title"}})
	if loc := a.header.Get("Location"); !regexp.MustCompile(`^/\?added=\d+&q=x&sort=title$`).MatchString(loc) {
		t.Errorf("add from a filtered page returned to %q", loc)
	}
	if want := "1 wait for your allowance of new Series (7 an hour) or for room under the cap of 2 bookmarks of Series the server has never read a chapter of"; !strings.Contains(job, want) {
		t.Errorf("the import's page lacks %q:\n%s", want, job)
	}
}

func TestImportPageUploadsAndShowsTheResult(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/import")
	if page.code != http.StatusOK || !strings.Contains(page.body, `enctype="multipart/form-data"`) || !strings.Contains(page.body, `href="/export.json"`) {
		t.Fatalf("import page: %d %s", page.code, page.body)
	}
	tok := f.csrf(t, c, "/import")
	csv := "url,progress\nhttps://mangapill.test/series/50,4\nhttps://mangapill.test/series/2,8.5\nhttps://nowhere.example/x,1\n"
	if a := f.postFile(t, c, "", "lib.csv", []byte(csv)); a.code != http.StatusForbidden {
		t.Fatalf("no csrf: %d", a.code)
	}
	if n := len(f.importsOf(t, 2)); n != 0 {
		t.Fatalf("a refused form left %d imports", n)
	}
	a := f.postFile(t, c, tok, "lib.csv", []byte(csv))
	loc := a.header.Get("Location")
	if a.code != http.StatusSeeOther || !regexp.MustCompile(`^/import/\d+$`).MatchString(loc) {
		t.Fatalf("upload: %d %q %s", a.code, loc, a.body)
	}
	job := f.get(t, c, loc)
	for _, want := range []string{`data-state="done"`, `<progress id="progress" max="3" value="3">`, "1 added, 1 already in your library, Progress moved on 2",
		"<strong>https://nowhere.example/x</strong>: not a Site we read", "https://mangapill.test/series/50</a> (Progress 4)",
		// The flash says in words what the import just did.
		`role="status" id="flash">Imported: 1 added, 1 already in your library, Progress moved forward on 2, 1 not imported (see below).</div>`} {
		if !strings.Contains(job.body, want) {
			t.Errorf("import page lacks %q:\n%s", want, job.body)
		}
	}
	if job.header.Get("Refresh") != "" {
		t.Errorf("a finished import refreshes: %q", job.header.Get("Refresh"))
	}
	other := f.login(t, f.ownerToken)
	if a := f.get(t, other, loc); a.code != http.StatusNotFound {
		t.Errorf("another Reader's import: %d", a.code)
	}
	// An unreadable file: 400 with the reason, nothing recorded.
	bad := f.postFile(t, c, tok, "backup.tachibk", []byte{0x1f, 0x8b, 8, 0, 0})
	if bad.code != http.StatusBadRequest || !strings.Contains(bad.body, "not a readable Mihon/Tachiyomi backup") {
		t.Errorf("bad file: %d %s", bad.code, bad.body)
	}
	if n := len(f.importsOf(t, 2)); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}
	// An upload past 32 MiB sent without a length (chunked) is 413 too.
	var big bytes.Buffer
	mw := multipart.NewWriter(&big)
	_ = mw.WriteField("csrf", tok)
	fw, _ := mw.CreateFormFile("file", "huge.csv")
	_, _ = fw.Write(bytes.Repeat([]byte("a"), 33<<20))
	_ = mw.Close()
	req, _ := http.NewRequest("POST", f.srv.URL+"/import", io.MultiReader(&big))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if a := f.do(t, c, req); a.code != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "32 MiB") {
		t.Errorf("a chunked 33 MiB upload: %d %.300s", a.code, a.body)
	}
	// The export pages carry the session's bookmarks.
	exp := f.get(t, c, "/export.csv")
	if exp.code != http.StatusOK || !strings.HasPrefix(exp.body, "site,series_id,title,url,latest_number") || !strings.Contains(exp.body, "mangapill,50,") {
		t.Errorf("export.csv: %d %s", exp.code, exp.body)
	}
	if strings.HasPrefix(exp.body, "\ufeff") {
		t.Error("export.csv starts with a byte-order mark though none was asked for")
	}
	// The "for Excel" link: the same CSV, the byte-order mark first.
	if page := f.get(t, c, "/import"); !strings.Contains(page.body, `href="/export.csv?bom=1"`) {
		t.Error("the import page has no CSV export for Excel")
	}
	if xl := f.get(t, c, "/export.csv?bom=1"); xl.code != http.StatusOK || xl.body != "\xef\xbb\xbf"+exp.body {
		t.Errorf("export.csv?bom=1: %d, want the CSV after EF BB BF: %q", xl.code, xl.body[:min(len(xl.body), 40)])
	}
	if bad := f.get(t, c, "/export.csv?bom=yes"); bad.code != http.StatusBadRequest || !strings.Contains(bad.body, "bom must be 1") {
		t.Errorf("export.csv?bom=yes: %d", bad.code)
	}
	if exp := f.get(t, c, "/export.json"); exp.code != http.StatusOK || !strings.Contains(exp.body, `"series_id": "50"`) {
		t.Errorf("export.json: %d %s", exp.code, exp.body)
	}
	if a := f.get(t, f.client(t), "/export.json"); a.code != http.StatusSeeOther {
		t.Errorf("export without a session: %d", a.code)
	}
}

// A waiting import's page refreshes itself soon after the allowance refills.
func TestImportPageRefreshesWhileWaiting(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	f.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 2, MaxBookmarks: 5000})
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/import")
	var urls []string
	for i := 0; i < 3; i++ {
		urls = append(urls, fmt.Sprintf("https://mangapill.test/series/%d", 60+i))
	}
	a := f.postForm(t, c, "/import", url.Values{"csrf": {tok}, "urls": {strings.Join(urls, "\n")}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("%d %s", a.code, a.body)
	}
	job := f.get(t, c, a.header.Get("Location"))
	if !strings.Contains(job.body, `data-state="waiting"`) || !strings.Contains(job.body, `value="2"`) || job.header.Get("Refresh") != "60" {
		t.Fatalf("waiting page: %q %s", job.header.Get("Refresh"), job.body)
	}
	f.clock.Add(30*time.Minute - 5*time.Second)
	if r := f.get(t, c, a.header.Get("Location")).header.Get("Refresh"); r != "6" {
		t.Errorf("Refresh %q five seconds before the refill, want 6", r)
	}
}

// filler is an endless body of 'a's.
type filler struct{}

func (filler) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// counted counts the bytes the client took of a body.
type counted struct {
	r io.Reader
	n atomic.Int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// A stranger's upload is refused before its body is read: POST /import
// without a session is sent to the login page having taken at most what
// the connection buffers of a 31 MiB form, not the form (the session was
// checked only after the whole form was parsed).
func TestImportWithoutSessionIsRefusedUnread(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("csrf", "forged")
	_, _ = mw.CreateFormFile("file", "big.csv")
	n := buf.Len()
	_ = mw.Close()
	head, tail := buf.Bytes()[:n], buf.Bytes()[n:]
	const fill = 31 << 20
	body := &counted{r: io.MultiReader(bytes.NewReader(head), io.LimitReader(filler{}, fill), bytes.NewReader(tail))}
	req, _ := http.NewRequest("POST", f.srv.URL+"/import", body)
	req.ContentLength = int64(len(head) + fill + len(tail))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	a := f.do(t, f.client(t), req)
	sent := body.n.Load()
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("an upload without a session: %d %q, want 303 to /", a.code, a.header.Get("Location"))
	}
	if sent > 16<<20 {
		t.Fatalf("the server read %d MiB of a stranger's %d MiB upload before refusing it", sent>>20, req.ContentLength>>20)
	}
	t.Logf("%.1f MiB of the body left the client before the refusal", float64(sent)/(1<<20))
}

// The import page and POST /api/imports share the Reader's one upload
// slot: while an upload of the Reader's is being read through the API,
// the page's upload is 429 with Retry-After, and goes through after it.
func TestImportPageSharesTheUploadSlot(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/import")
	host := strings.TrimPrefix(f.srv.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	held := `{"urls":["https://mangapill.test/series/70"]}`
	fmt.Fprintf(conn, "POST /api/imports HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", host, f.readerToken, len(held))
	rd := bufio.NewReader(conn)
	// 100 Continue: the API handler holds the slot and reads the body.
	if line, err := rd.ReadString('\n'); err != nil || !strings.Contains(line, " 100 ") {
		t.Fatalf("the API upload: %q (%v), want 100 Continue", line, err)
	}
	a := f.postFile(t, c, tok, "lib.csv", []byte("url\nhttps://mangapill.test/series/71\n"))
	if a.code != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" || !strings.Contains(a.body, "still being read") {
		t.Fatalf("the page's upload beside the API's: %d Retry-After %q %.300s, want 429", a.code, a.header.Get("Retry-After"), a.body)
	}
	if _, err := rd.ReadString('\n'); err != nil { // the blank line after 100 Continue
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte(held)); err != nil {
		t.Fatal(err)
	}
	if line, err := rd.ReadString('\n'); err != nil || !strings.Contains(line, " 202 ") {
		t.Fatalf("the API upload ended %q (%v)", line, err)
	}
	if a := f.postFile(t, c, tok, "lib.csv", []byte("url\nhttps://mangapill.test/series/71\n")); a.code != http.StatusSeeOther {
		t.Fatalf("the page's upload after the API's: %d %.300s", a.code, a.body)
	}
}
