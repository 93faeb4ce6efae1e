package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/store"
)

func postReads(t *testing.T, e *readerEnv, tok, body string) api.ProgressResultJSON {
	t.Helper()
	code, resp := e.do(tok, "POST", "/api/progress", body)
	if code != http.StatusOK {
		t.Fatalf("progress: %d %s", code, resp)
	}
	var out api.ProgressResultJSON
	if err := json.Unmarshal(resp, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func read(site, id, number, at string) string {
	return fmt.Sprintf(`{"site":%q,"series_id":%q,"number":%q,"url":"","read_at":%q}`, site, id, number, at)
}

func batch(reads ...string) string { return `{"reads":[` + strings.Join(reads, ",") + `]}` }

func progressOf(t *testing.T, e *readerEnv, discordID, site, id string) store.Progress {
	t.Helper()
	r, err := e.st.GetReaderByDiscordID(context.Background(), discordID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.st.GetProgress(context.Background(), r.ID, site, id)
	if err != nil {
		t.Fatalf("progress %s/%s: %v", site, id, err)
	}
	return p
}

func TestProgressReplayAndOutOfOrder(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	const who = "200000000000000002"
	tok := e.token(who)

	// A read of an unknown Series creates the Series and the bookmark.
	r12 := read("mangapill", "2", "12", "2026-05-01T10:00:00Z")
	if got := postReads(t, e, tok, batch(r12)); got.Applied != 1 || got.Ignored != 0 || len(got.Errors) != 0 {
		t.Fatalf("first read: %+v", got)
	}
	if _, err := e.st.GetSeries(context.Background(), "mangapill", "2"); err != nil {
		t.Fatalf("Series not created: %v", err)
	}
	if len(listBookmarks(t, e, tok)) != 1 {
		t.Fatal("bookmark not created")
	}
	// Replay: nothing changes.
	if got := postReads(t, e, tok, batch(r12)); got.Applied != 0 || got.Ignored != 1 {
		t.Fatalf("replay: %+v", got)
	}
	// An older chapter read later never moves Progress back.
	if got := postReads(t, e, tok, batch(read("mangapill", "2", "11.5", "2026-05-02T10:00:00Z"))); got.Applied != 0 || got.Ignored != 1 {
		t.Fatalf("older chapter: %+v", got)
	}
	// Numeric comparison: 12.10 > 12.9 would be wrong; 100 > 99 as numbers.
	if got := postReads(t, e, tok, batch(read("mangapill", "2", "12.5", "2026-04-01T00:00:00Z"))); got.Applied != 1 {
		t.Fatalf("12.5 after 12: %+v", got)
	}
	p := progressOf(t, e, who, "mangapill", "2")
	if p.Number != "12.5" || !p.ReadAt.Equal(mustTime("2026-04-01T00:00:00Z")) {
		t.Fatalf("progress = %+v, want 12.5 read at its own read_at", p)
	}
	// A batch out of order lands on the furthest chapter.
	got := postReads(t, e, tok, batch(
		read("mangapill", "3", "100", "2026-05-01T10:00:00Z"),
		read("mangapill", "3", "99", "2026-05-01T11:00:00Z"),
		read("mangapill", "3", "100", "2026-05-01T12:00:00Z"),
	))
	if got.Applied != 1 || got.Ignored != 2 {
		t.Fatalf("out of order: %+v", got)
	}
	if p := progressOf(t, e, who, "mangapill", "3"); p.Number != "100" {
		t.Fatalf("progress = %s, want 100", p.Number)
	}
	// Another Reader's Progress is separate.
	other := e.token("200000000000000003")
	if got := postReads(t, e, other, batch(read("mangapill", "2", "1", "2026-05-01T10:00:00Z"))); got.Applied != 1 {
		t.Fatalf("other reader: %+v", got)
	}
	if p := progressOf(t, e, who, "mangapill", "2"); p.Number != "12.5" {
		t.Fatalf("first reader's progress moved to %s", p.Number)
	}
}

func TestProgressBatchWithBadEntries(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	body := batch(
		read("mangapill", "2", "5", "2026-05-01T10:00:00Z"),                                                                                                // 0 ok
		read("nosuchsite", "2", "5", "2026-05-01T10:00:00Z"),                                                                                               // 1 unknown site
		read("mangapill", "2x", "5", "2026-05-01T10:00:00Z"),                                                                                               // 2 implausible id
		read("mangapill", "3", "five", "2026-05-01T10:00:00Z"),                                                                                             // 3 bad number
		read("mangapill", "3", "-1", "2026-05-01T10:00:00Z"),                                                                                               // 4 negative
		read("mangapill", "3", "5", "yesterday"),                                                                                                           // 5 bad time
		read("mangapill", "3", "5", "2027-05-01T10:00:00Z"),                                                                                                // 6 future
		`{"site":"mangapill","series_id":"3","number":"5","url":"https://mangapill.com/manga/4","read_at":"2026-05-01T10:00:00Z"}`,                         // 7 url of another Series
		`{"site":"mangapill","series_id":"3","number":"5","url":"https://mangadex.org/title/x","read_at":"2026-05-01T10:00:00Z"}`,                          // 8 url of another Site
		`{"site":"mangapill","series_id":"3","number":"6","url":"https://mangapill.com/chapters/3-10006000/x-chapter-6","read_at":"2026-05-01T10:00:00Z"}`, // 9 ok
		read("mangadex", "a1c7c817-4e59-43b7-9365-09675a149a6f", "7", "2026-05-01T10:00:00+02:00"),                                                         // 10 ok
		`{"site":"mangadex","series_id":"a1c7c817-4e59-43b7-9365-09675a149a6f","number":"6","url":"https://mangadex.org/chapter/0c7c8f1e-4e59-43b7-9365-09675a149a6f","read_at":"2026-05-01T10:00:00Z"}`, // 11 valid, ignored (6 < 7): chapter URL names no Series
		read("mangadex", "A1C7C817-4E59-43B7-9365-09675A149A6F", "9", "2026-05-01T10:00:00Z"),                                                                                                            // 12 not canonical
	)
	got := postReads(t, e, tok, body)
	if got.Applied != 3 || got.Ignored != 1 {
		t.Errorf("applied %d ignored %d, want 3 and 1", got.Applied, got.Ignored)
	}
	var idx []int
	for _, er := range got.Errors {
		idx = append(idx, er.Index)
		if er.Error == "" {
			t.Errorf("entry %d: empty error", er.Index)
		}
	}
	if fmt.Sprint(idx) != "[1 2 3 4 5 6 7 8 12]" {
		t.Errorf("error indexes %v, want [1 2 3 4 5 6 7 8 12]: %+v", idx, got.Errors)
	}
	if p := progressOf(t, e, "200000000000000002", "mangapill", "3"); p.Number != "6" {
		t.Errorf("mangapill/3 = %s, want 6", p.Number)
	}
	if p := progressOf(t, e, "200000000000000002", "mangadex", "a1c7c817-4e59-43b7-9365-09675a149a6f"); p.Number != "7" {
		t.Errorf("mangadex = %s, want 7", p.Number)
	}
	if n := e.count("series"); n != 3 {
		t.Errorf("series rows = %d, want 3 (no Series from refused reads)", n)
	}
}

// Hostile bodies are answered with the right status and write nothing.
func TestProgressHostileBodies(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	huge := `{"reads":[` + strings.Repeat(read("mangapill", "2", "5", "2026-05-01T10:00:00Z")+",", 20000) + read("mangapill", "2", "5", "2026-05-01T10:00:00Z") + `]}`
	many := make([]string, api.MaxReadsPerBatch+1)
	for i := range many {
		many[i] = read("mangapill", "2", "5", "2026-05-01T10:00:00Z")
	}
	for name, c := range map[string]struct {
		body, ctype string
		code        int
		msg         string
	}{
		"huge":               {huge, "", 413, "1 MiB"},
		"too many reads":     {batch(many...), "", 400, "at most"},
		"malformed":          {`{"reads":[{"site":"mangapill",`, "", 400, "not valid JSON"},
		"not json":           {`reads=1`, "", 400, "not valid JSON"},
		"number as number":   {`{"reads":[{"site":"mangapill","series_id":"2","number":12,"url":"","read_at":"2026-05-01T10:00:00Z"}]}`, "", 400, `"reads.number"`},
		"reads as object":    {`{"reads":{}}`, "", 400, `"reads"`},
		"reads missing":      {`{}`, "", 400, `"reads"`},
		"reads null":         {`{"reads":null}`, "", 400, `"reads"`},
		"unknown field":      {`{"reads":[],"token":"x"}`, "", 400, `"token"`},
		"unknown in read":    {`{"reads":[{"site":"mangapill","series":"2"}]}`, "", 400, `"series"`},
		"empty body":         {``, "", 400, "empty"},
		"string body":        {`"hello"`, "", 400, "object"},
		"wrong content type": {batch(read("mangapill", "2", "5", "2026-05-01T10:00:00Z")), "text/plain", 415, "JSON"},
	} {
		var code int
		var body []byte
		if c.ctype != "" {
			code, _, body = e.doH(tok, "POST", "/api/progress", c.body, http.Header{"Content-Type": {c.ctype}})
		} else {
			code, body = e.do(tok, "POST", "/api/progress", c.body)
		}
		if code != c.code {
			t.Errorf("%s: %d %s, want %d", name, code, body, c.code)
			continue
		}
		if msg := errorOf(t, body); !strings.Contains(msg, c.msg) {
			t.Errorf("%s: error %q lacks %q", name, msg, c.msg)
		}
	}
	if n := e.count("progress") + e.count("bookmarks") + e.count("series"); n != 0 {
		t.Fatalf("hostile bodies wrote %d rows", n)
	}
	// An empty batch is fine and does nothing.
	if got := postReads(t, e, tok, `{"reads":[]}`); got.Applied+got.Ignored+len(got.Errors) != 0 {
		t.Fatalf("empty batch: %+v", got)
	}
}

// Writes are rate-limited per Reader: the burst passes, the next is 429,
// and another Reader is unaffected.
func TestProgressRateLimitPerToken(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	a := e.token("200000000000000002")
	b := e.token("200000000000000003")
	limited := -1
	for i := 0; i < 500; i++ {
		code, body := e.do(a, "POST", "/api/progress", `{"reads":[]}`)
		if code == http.StatusTooManyRequests {
			if !strings.Contains(errorOf(t, body), "wait") {
				t.Errorf("429 body: %s", body)
			}
			limited = i
			break
		}
		if code != http.StatusOK {
			t.Fatalf("write %d: %d %s", i, code, body)
		}
	}
	if limited <= 0 {
		t.Fatal("no 429 within 500 writes at a frozen clock")
	}
	if code, _ := e.do(b, "POST", "/api/progress", `{"reads":[]}`); code != http.StatusOK {
		t.Fatalf("other token limited: %d", code)
	}
	if code, _ := e.do(a, "GET", "/api/bookmarks", ""); code != http.StatusOK {
		t.Fatalf("reads limited: %d", code)
	}
}
