package api_test

import (
	"net/http"
	"testing"
)

// TestTwoTokensOfOneReaderShareOneBudget is the review's B5-1 as an
// attack: a Reader with a second token (a second Discord login) does not
// get a second write budget. Once the first token's writes are spent, the
// second token of the same Reader is 429 too; another Reader is not.
func TestTwoTokensOfOneReaderShareOneBudget(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	first := e.token("200000000000000002")
	second := e.token("200000000000000002")
	other := e.token("200000000000000003")
	spent := false
	for i := 0; i < 500 && !spent; i++ {
		code, body := e.do(first, "POST", "/api/progress", `{"reads":[]}`)
		switch code {
		case http.StatusTooManyRequests:
			spent = true
		case http.StatusOK:
		default:
			t.Fatalf("write %d: %d %s", i, code, body)
		}
	}
	if !spent {
		t.Fatal("no 429 within 500 writes at a frozen clock")
	}
	if code, body := e.do(second, "POST", "/api/progress", `{"reads":[]}`); code != http.StatusTooManyRequests {
		t.Fatalf("the same Reader's second token: %d %s, want 429 (one budget per Reader)", code, body)
	}
	if code, body := e.do(other, "POST", "/api/progress", `{"reads":[]}`); code != http.StatusOK {
		t.Fatalf("another Reader: %d %s", code, body)
	}
}
