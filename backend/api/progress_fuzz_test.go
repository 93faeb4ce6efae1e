package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/api"
)

// FuzzProgressBody: whatever the body, the answer is one of the contract's
// statuses, never a 5xx, and a 200 accounts for every read it was sent.
func FuzzProgressBody(f *testing.F) {
	for _, seed := range []string{
		`{"reads":[{"site":"mangapill","series_id":"2","number":"12.5","url":"","read_at":"2026-05-01T10:00:00Z"}]}`,
		`{"reads":[{"site":"mangapill","series_id":"2","number":"1e9","url":"javascript:x","read_at":"2026-05-01T10:00:00Z"}]}`,
		`{"reads":[{"site":"","series_id":"","number":"","url":"","read_at":""}]}`,
		`{"reads":[{"site":"mangadex","series_id":"../../etc","number":"0","url":"https://mangadex.org/chapter/x","read_at":"9999-12-31T23:59:59Z"}]}`,
		`{"reads":[]}`, `{"reads":null}`, `{}`, `[]`, `null`, ``, `{"reads":[1,2]}`, "{\"reads\":[{\"site\":\"\u0000\"}]}",
	} {
		f.Add(seed)
	}
	// One server and database for the whole run; the invariants hold
	// whatever earlier inputs stored.
	e := newReaderEnv(f, func(d *api.Config) { d.NoLimits = true })
	tok := e.token("200000000000000099")
	f.Fuzz(func(t *testing.T, body string) {
		code, resp := post(t, e.srv.URL+"/api/progress", tok, body)
		switch code {
		case http.StatusOK:
			var req struct {
				Reads []json.RawMessage `json:"reads"`
			}
			_ = json.Unmarshal([]byte(body), &req)
			var res api.ProgressResultJSON
			if err := json.Unmarshal(resp, &res); err != nil {
				t.Fatalf("200 body %s: %v", resp, err)
			}
			if res.Applied+res.Ignored+len(res.Errors) != len(req.Reads) {
				t.Fatalf("200 accounts for %d of %d reads: %s", res.Applied+res.Ignored+len(res.Errors), len(req.Reads), resp)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusTooManyRequests:
		default:
			t.Fatalf("status %d for %q: %s", code, body, resp)
		}
	})
}

func post(t *testing.T, url, tok, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
