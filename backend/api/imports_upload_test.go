package api_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// importHeaders sends the headers of POST /api/imports for tok on a raw
// connection with Expect: 100-continue, and returns the first status
// line: 100 once the handler begins to read the body.
func importHeaders(t *testing.T, e *importEnv, tok string, n int) (net.Conn, *bufio.Reader, string) {
	t.Helper()
	host := strings.TrimPrefix(e.srv.URL, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /api/imports HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", host, tok, n)
	rd := bufio.NewReader(c)
	line, err := rd.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return c, rd, line
}

// holdImport starts an upload for tok and returns once the server asks
// for its body (the handler has begun to read it); finish sends the body
// and returns the answer's status line.
func holdImport(t *testing.T, e *importEnv, tok string) (finish func() string) {
	t.Helper()
	body := `{"urls":["https://mangapill.com/manga/7/held"]}`
	c, rd, line := importHeaders(t, e, tok, len(body))
	if !strings.Contains(line, " 100 ") {
		t.Fatalf("the held upload was answered %q, want 100 Continue", line)
	}
	if blank, err := rd.ReadString('\n'); err != nil || blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q (%v)", blank, err)
	}
	return func() string {
		if _, err := c.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
		line, _ := rd.ReadString('\n')
		return line
	}
}

// One Reader has one import body in the server at a time: while an
// upload is being read, another of the same Reader's (through another
// token too) is 429 with Retry-After before its body is read. Another
// Reader is not held back, and the slot frees when the upload ends.
func TestImportUploadsOneAtATimePerReader(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok, tok2, other := e.token("200000000000000002"), e.token("200000000000000002"), e.token("200000000000000003")
	finish := holdImport(t, e, tok)
	small := `{"urls":["https://mangapill.com/manga/8/next"]}`
	code, hdr, b := e.doH(tok2, "POST", "/api/imports", small, nil)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(errorOf(t, b), "another import of yours is still being read") {
		t.Fatalf("a second upload while the first is read: %d Retry-After %q %s, want 429 with Retry-After and the reason",
			code, hdr.Get("Retry-After"), b)
	}
	if _, _, line := importHeaders(t, e, tok2, len(small)); !strings.Contains(line, " 429 ") {
		t.Fatalf("a second upload that waits to send its body: %q, want 429 before the body is asked for", line)
	}
	if code, _, b := e.post(other, "application/json", []byte(small)); code != http.StatusAccepted {
		t.Fatalf("another Reader's upload: %d %s", code, b)
	}
	if line := finish(); !strings.Contains(line, " 202 ") {
		t.Fatalf("the held upload ended %q", line)
	}
	if code, _, b := e.post(tok2, "application/json", []byte(small)); code != http.StatusAccepted {
		t.Fatalf("after the held upload ended: %d %s", code, b)
	}
}
