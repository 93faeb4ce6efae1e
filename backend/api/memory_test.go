package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/tokenbudget"
)

// postStream sends body to POST /api/progress without a Content-Length
// (chunked), so only the handler's own reading can stop it.
func postStream(t *testing.T, e *readerEnv, tok string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", e.srv.URL+"/api/progress", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// emptyReads is the maximal body: 1 MiB of {} reads (about
// 350,000), which the old handler decoded whole (~80 MiB of heap) before
// it counted them.
func emptyReads() string {
	return `{"reads":[` + strings.Repeat(`{},`, (1<<20-20)/3) + `{}]}`
}

// Not parallel: the allocation count is the whole process's, so nothing
// else may run beside it.
func TestProgressBodyIsStreamedAndStopsAtRead501(t *testing.T) {
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	body := emptyReads()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code, msg := postStream(t, e, tok, strings.NewReader(body))
	runtime.ReadMemStats(&after)
	if code != http.StatusBadRequest || !strings.Contains(msg, "more than 500 reads") {
		t.Fatalf("1 MiB of empty reads: %d %s, want 400 naming the 500-read bound", code, msg)
	}
	// The body itself is 1 MiB (held by the test); the server may spend a
	// few times the 500 reads it keeps, never the whole body's worth of reads.
	const bound = 12 << 20
	if got := after.TotalAlloc - before.TotalAlloc; got > bound {
		t.Fatalf("one request of 1 MiB of empty reads allocated %d MiB, want under %d MiB", got>>20, bound>>20)
	} else {
		t.Logf("allocated %.1f MiB for one maximal body (test side included)", float64(got)/(1<<20))
	}
}

// The small routes take small bodies: a 64 KiB bookmark request is 413,
// streamed or declared; so are the notify settings, push subscriptions
// and the Owner's pause past what their fields can hold.
func TestSmallRoutesCapTheirBodies(t *testing.T) {
	t.Parallel()
	e := strictNoticeEnv(t)
	tok, owner := e.token("200000000000000002"), e.token(ownerID)
	big := `{"url":"https://mangapill.com/manga/2` + strings.Repeat("x", 64<<10) + `"}`
	pad := strings.Repeat(" ", 64<<10)
	for _, c := range []struct{ tok, method, path, body string }{
		{tok, "POST", "/api/bookmarks", big},
		{tok, "PUT", "/api/me/preferences", `{"auto_add_reads":true` + strings.Repeat(" ", 4<<10) + `}`},
		{tok, "PUT", "/api/bookmarks/mangapill/2/progress", `{"number":"1","url":"` + strings.Repeat("y", 64<<10) + `"}`},
		{tok, "PUT", "/api/me/notify", `{"ntfy_url":"https://ntfy.sh/` + strings.Repeat("z", 64<<10) + `"}`},
		{tok, "PUT", "/api/bookmarks/mangapill/2/notify", `{"mode":"each"` + strings.Repeat(" ", 4<<10) + `}`},
		{tok, "POST", "/api/push/subscriptions", `{"endpoint":"https://push.example/` + strings.Repeat("e", 64<<10) + `","keys":{}}`},
		{tok, "DELETE", "/api/push/subscriptions", `{"endpoint":"https://push.example/1"` + pad + `}`},
		{owner, "POST", "/api/admin/lanes/mangapill/pause", `{"for_s":60,"reason":"` + strings.Repeat("r", 64<<10) + `"}`},
	} {
		if code, body := e.do(c.tok, c.method, c.path, c.body); code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s %s with a %d byte body: %d %s, want 413", c.method, c.path, len(c.body), code, body)
		}
		req, _ := http.NewRequest(c.method, e.srv.URL+c.path, io.MultiReader(strings.NewReader(c.body)))
		req.ContentLength = -1
		req.Header.Set("Authorization", "Bearer "+c.tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s %s streamed: %d, want 413", c.method, c.path, resp.StatusCode)
		}
	}
	// The caps hold what the contract allows: a URL one past 2048
	// characters and a reason one past 500 (escaped, six bytes each) are
	// refused by name, not for their size.
	long := `"https://ntfy.sh/` + strings.Repeat("z", 2049-16) + `"`
	if code, body := e.do(tok, "PUT", "/api/me/notify", `{"ntfy_url":`+long+`,"webhook_url":`+long+`}`); code != http.StatusBadRequest || !strings.Contains(string(body), "2048") {
		t.Errorf("two URLs of 2049 characters: %d %s, want 400 naming the length", code, body)
	}
	reason := strings.Repeat(`\u00e9`, 501)
	if code, body := e.do(owner, "POST", "/api/admin/lanes/mangapill/pause", `{"for_s":60,"reason":"`+reason+`"}`); code != http.StatusBadRequest || !strings.Contains(string(body), "500") {
		t.Errorf("a reason of 501 escaped characters: %d %s, want 400 naming the bound", code, body)
	}
}

// One Reader holds at most tokenbudget.MaxInFlight requests in the server: the
// next is 429 before its body is read; another Reader is not held back, and
// a slot frees when a request ends.
func TestInFlightPerToken(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok, other := e.token("200000000000000002"), e.token("200000000000000003")
	// Twelve requests whose bodies never finish, on raw connections (so
	// nothing between the test and the server holds a body back): eight
	// get in and wait for their bodies, four are refused at once.
	host := strings.TrimPrefix(e.srv.URL, "http://")
	type held struct {
		c      net.Conn
		answer chan string
	}
	var all []held
	for i := 0; i < tokenbudget.MaxInFlight+4; i++ {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		h := held{c: c, answer: make(chan string, 1)}
		fmt.Fprintf(c, "POST /api/progress HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{\"reads\":[", host, tok)
		go func() {
			line, _ := bufio.NewReader(c).ReadString('\n')
			h.answer <- line
		}()
		all = append(all, h)
	}
	var waiting []held
	refused := 0
	deadline := time.After(30 * time.Second)
	for _, h := range all {
		select {
		case line := <-h.answer:
			if !strings.Contains(line, " 429 ") {
				t.Fatalf("an unfinished request answered %q", line)
			}
			refused++
		case <-deadline:
			t.Fatalf("only %d of the requests past the bound were refused", refused)
		default:
			waiting = append(waiting, h)
			continue
		}
	}
	for refused < 4 { // the refusals may still be on their way
		found := false
		for i := 0; i < len(waiting) && !found; i++ {
			select {
			case line := <-waiting[i].answer:
				if !strings.Contains(line, " 429 ") {
					t.Fatalf("an unfinished request answered %q", line)
				}
				refused++
				waiting = append(waiting[:i], waiting[i+1:]...)
				found = true
			default:
			}
		}
		if !found {
			select {
			case <-deadline:
				t.Fatalf("only %d of the requests past the bound were refused", refused)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	if len(waiting) != tokenbudget.MaxInFlight {
		t.Fatalf("%d requests in the server, want %d", len(waiting), tokenbudget.MaxInFlight)
	}
	if code, _ := e.do(tok, "GET", "/api/bookmarks", ""); code != http.StatusTooManyRequests {
		t.Fatalf("a further request of the token: %d, want 429", code)
	}
	if code, body := e.do(other, "GET", "/api/bookmarks", ""); code != http.StatusOK {
		t.Fatalf("another token: %d %s", code, body)
	}
	for _, h := range waiting {
		if _, err := h.c.Write([]byte("]}")); err != nil {
			t.Fatal(err)
		}
		if line := <-h.answer; !strings.Contains(line, " 200 ") {
			t.Fatalf("a held request ended %q", line)
		}
	}
	if code, body := e.do(tok, "GET", "/api/bookmarks", ""); code != http.StatusOK {
		t.Fatalf("after the held requests ended: %d %s", code, body)
	}
}
