package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
)

// Issue 33 A1: POST /api/me/notify/test took a burst of 120 calls. The
// second within TestEvery is now 429 with the contract's error body, the
// wait in Retry-After, and sends nothing.
func TestTestNoticeOnceAMinute(t *testing.T) {
	t.Parallel()
	e, _ := noticeEnv(t)
	tok := e.token("210")
	if code, body := e.do(tok, "POST", "/api/me/notify/test", ""); code != http.StatusOK {
		t.Fatalf("the first test: %d %s", code, body)
	}
	e.now = e.now.Add(readernotice.TestEvery - 15*time.Second)
	code, hdr, body := e.doH(tok, "POST", "/api/me/notify/test", "", nil)
	msg := decodeAs[struct{ Error string }](t, body)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") != strconv.Itoa(15) || !strings.Contains(msg.Error, "in 15 seconds") {
		t.Fatalf("the second test 45 s later: %d Retry-After %q %s", code, hdr.Get("Retry-After"), body)
	}
	e.now = e.now.Add(15 * time.Second)
	if code, body := e.do(tok, "POST", "/api/me/notify/test", ""); code != http.StatusOK {
		t.Fatalf("a minute after: %d %s", code, body)
	}
}
