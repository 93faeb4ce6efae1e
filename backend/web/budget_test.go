package web_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/tokenbudget"
)

// sessionCookie is the logged-in client's session cookie, as a header.
func (f *fixture) sessionCookie(t *testing.T, c *http.Client) string {
	t.Helper()
	u, _ := url.Parse(f.srv.URL)
	var parts []string
	for _, ck := range c.Jar.Cookies(u) {
		parts = append(parts, ck.Name+"="+ck.Value)
	}
	if len(parts) == 0 {
		t.Fatal("no session cookie")
	}
	return strings.Join(parts, "; ")
}

// holdForm sends a form post on a raw connection and waits until the
// handler reads its body (100 Continue), so the request holds its slot;
// finish sends the body and returns the answer's status line.
func (f *fixture) holdForm(t *testing.T, cookie, path, form string) (finish func() string) {
	t.Helper()
	host := strings.TrimPrefix(f.srv.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nOrigin: %s\r\n"+
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n",
		path, host, cookie, f.srv.URL, len(form))
	rd := bufio.NewReader(conn)
	if line, err := rd.ReadString('\n'); err != nil || !strings.Contains(line, " 100 ") {
		t.Fatalf("held %s: %q (%v), want 100 Continue", path, line, err)
	}
	if _, err := rd.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	return func() string {
		if _, err := conn.Write([]byte(form)); err != nil {
			t.Fatal(err)
		}
		line, _ := rd.ReadString('\n')
		return line
	}
}

// Issue 33 W1: the pages' form posts had no in-flight bound. A session's
// requests now take the slots of its token, the same ones its API
// requests take: with MaxInFlight form posts in the server, the next form
// and the next API call of the token are 429 before any body is read;
// another Reader is not held back; a slot frees when a post ends.
func TestFormsTakeTheTokensInFlightSlots(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/notices")
	cookie := f.sessionCookie(t, c)
	form := url.Values{"csrf": {tok}, "digest_min": {"5"}}.Encode()
	var finish []func() string
	for i := 0; i < tokenbudget.MaxInFlight; i++ {
		finish = append(finish, f.holdForm(t, cookie, "/notices", form))
	}
	a := f.postForm(t, c, "/notices", url.Values{"csrf": {tok}, "digest_min": {"5"}})
	if a.code != http.StatusTooManyRequests || a.header.Get("Retry-After") != "1" || !strings.Contains(a.body, "still being answered") {
		t.Fatalf("a form past the bound: %d Retry-After %q %.300s, want 429", a.code, a.header.Get("Retry-After"), a.body)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+"/api/bookmarks", nil)
	req.Header.Set("Authorization", "Bearer "+f.readerToken)
	if a := f.do(t, http.DefaultClient, req); a.code != http.StatusTooManyRequests {
		t.Fatalf("the same token on the API: %d, want 429 (one bound for both faces)", a.code)
	}
	owner := f.login(t, f.ownerToken)
	if a := f.get(t, owner, "/notices"); a.code != http.StatusOK {
		t.Fatalf("another Reader: %d", a.code)
	}
	if line := finish[0](); !strings.Contains(line, " 303 ") {
		t.Fatalf("a held post ended %q, want 303", line)
	}
	if a := f.postForm(t, c, "/notices", url.Values{"csrf": {tok}, "digest_min": {"5"}}); a.code != http.StatusSeeOther {
		t.Fatalf("after one ended: %d %.300s", a.code, a.body)
	}
}

// The forms spend the token's write budget, shared with the API: past the
// burst a form is 429 and changes nothing, and the API's writes of the
// token are refused too; the budget refills on the clock.
func TestFormsSpendTheTokensWriteBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	for i := 0; i < tokenbudget.WriteBurst; i++ {
		if a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {"8"}}); a.code == http.StatusTooManyRequests {
			t.Fatalf("write %d of the burst: 429", i+1)
		}
	}
	a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {"1"}})
	if a.code != http.StatusTooManyRequests || !strings.Contains(a.body, "Wait a few seconds") {
		t.Fatalf("the write past the burst: %d %.300s, want 429", a.code, a.body)
	}
	var n string
	if err := f.st.Pool().QueryRow(t.Context(), `SELECT number::text FROM progress WHERE reader_id = 2 AND site = 'mangapill' AND series_id = '2'`).Scan(&n); err != nil || n != "8" {
		t.Fatalf("Progress after the refused form: %q %v, want 8", n, err)
	}
	req, _ := http.NewRequest("DELETE", f.srv.URL+"/api/bookmarks/mangapill/3", nil)
	req.Header.Set("Authorization", "Bearer "+f.readerToken)
	if a := f.do(t, http.DefaultClient, req); a.code != http.StatusTooManyRequests {
		t.Fatalf("an API write of the same token: %d, want 429 (one budget for both faces)", a.code)
	}
	f.clock.Add(time.Second)
	if a := f.postForm(t, c, "/library/mangapill/2/progress", url.Values{"csrf": {tok}, "number": {"8"}}); a.code == http.StatusTooManyRequests {
		t.Fatalf("a second later: 429")
	}
}

// Each form takes only the body it needs: an ordinary form 16 KiB, "Add
// a Series" 128 KiB (about a thousand URLs); past that 413 naming the
// bound, nothing changed.
func TestFormBodiesAreCapped(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/notices", url.Values{"csrf": {tok}, "ntfy_url": {strings.Repeat("a", 17<<10)}})
	if a.code != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "at most 16 KiB") {
		t.Fatalf("a 17 KiB settings form: %d %.300s, want 413 naming 16 KiB", a.code, a.body)
	}
	line := "https://mangapill.test/series/77\n"
	a = f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {strings.Repeat(line, (129<<10)/len(line))}})
	if a.code != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "at most 128 KiB") {
		t.Fatalf("a 129 KiB Add a Series: %d %.300s, want 413 naming 128 KiB", a.code, a.body)
	}
	if n := len(f.importsOf(t, 2)); n != 0 {
		t.Fatalf("%d imports after the refused form, want none", n)
	}
	a = f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {strings.Repeat(line, 1000)}})
	if a.code != http.StatusSeeOther {
		t.Fatalf("a thousand lines: %d %.300s, want 303", a.code, a.body)
	}
}

// Issue 33 W1: "Add a Series" ran a whole import without the one-upload
// slot POST /import and POST /api/imports take. While an upload of the
// Reader's is being read, it is 429 before its body is read.
func TestAddSeriesTakesTheUploadSlot(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	finish := f.holdForm(t, f.sessionCookie(t, c), "/import",
		url.Values{"csrf": {tok}, "urls": {"https://mangapill.test/series/70"}}.Encode())
	a := f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {"https://mangapill.test/series/71"}})
	if a.code != http.StatusTooManyRequests || !strings.Contains(a.body, "still being read") {
		t.Fatalf("Add a Series beside an upload: %d %.300s, want 429", a.code, a.body)
	}
	if line := finish(); !strings.Contains(line, " 303 ") {
		t.Fatalf("the held upload ended %q", line)
	}
	if a := f.postForm(t, c, "/library/add", url.Values{"csrf": {tok}, "urls": {"https://mangapill.test/series/71"}}); a.code != http.StatusSeeOther {
		t.Fatalf("Add a Series after the upload: %d %.300s", a.code, a.body)
	}
}
