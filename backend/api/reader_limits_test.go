package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// The flood of issue 13 item 5: one Reader's requests of made-up Series ids
// must neither create unbounded work for the Lanes nor push another
// Reader's new bookmark behind it (docs/adr/0010-fair-due-order-and-reader-limits.md).

const (
	floodReader = "200000000000000002"
	otherReader = "200000000000000003"
)

// madeUp is a batch of n reads of Series ids nobody ever bookmarked.
func madeUp(from, n int) string {
	reads := make([]string, n)
	for i := range reads {
		reads[i] = read("mangapill", fmt.Sprint(9_000_000+from+i), "1", "2026-05-01T10:00:00Z")
	}
	return batch(reads...)
}

func TestProgressFloodIsLimitedAndListed(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token(floodReader)
	applied := 0
	for r := 0; r < 3; r++ { // the attack as reported: three requests of 500 made-up ids
		got := postReads(t, e, tok, madeUp(r*500, 500))
		if got.Applied+got.Ignored+len(got.Errors) != 500 {
			t.Fatalf("request %d: %d applied + %d ignored + %d errors, want 500 in all", r, got.Applied, got.Ignored, len(got.Errors))
		}
		for k, er := range got.Errors {
			if !strings.HasPrefix(er.Error, "new_series_limit: ") || !strings.Contains(er.Error, "100 new Series") {
				t.Fatalf("request %d: error %+v does not give the limit as its reason", r, er)
			}
			if k > 0 && er.Index <= got.Errors[k-1].Index {
				t.Fatalf("request %d: errors not in index order: %+v", r, got.Errors[k-1:k+1])
			}
		}
		applied += got.Applied
	}
	// 100 an hour; the bucket may have refilled one more if the test ran slow.
	if applied < 100 || applied > 101 {
		t.Fatalf("%d of 1500 made-up reads applied, want the hour's allowance of 100", applied)
	}
	if n := e.count("series"); n != applied {
		t.Fatalf("%d Series created, want %d (one per applied read, none for a refused one)", n, applied)
	}
	if n := e.count("progress"); n != applied {
		t.Fatalf("%d Progress rows, want %d", n, applied)
	}
	// A read of a Series the flooder already follows still applies.
	if got := postReads(t, e, tok, batch(read("mangapill", "9000000", "2", "2026-05-01T11:00:00Z"))); got.Applied != 1 {
		t.Fatalf("a read of an already bookmarked Series: %+v", got)
	}

	// Another Reader's new bookmark is read within a few reads.
	other := e.token(otherReader)
	code, body := e.do(other, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/77/one-piece"}`)
	if code != http.StatusCreated {
		t.Fatalf("the other Reader's bookmark: %d %s", code, body)
	}
	due, err := e.st.DueBatch(context.Background(), "mangapill", time.Hour, time.Now(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range due {
		ids = append(ids, d.SeriesID)
	}
	if !strings.Contains(fmt.Sprint(ids), "77") {
		t.Fatalf("the first reads of the Lane are %v: the other Reader's new bookmark waits behind the flood", ids)
	}
}

func TestBookmarkFloodAnswers429(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token(floodReader)
	// Another Reader follows Series 5 already: bookmarking it creates no
	// Series and costs nothing.
	if code, body := e.do(e.token(otherReader), "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/5"}`); code != http.StatusCreated {
		t.Fatalf("seed: %d %s", code, body)
	}
	for i := 0; i < 100; i++ {
		code, body := e.do(tok, "POST", "/api/bookmarks", fmt.Sprintf(`{"url":"https://mangapill.com/manga/%d"}`, 1000+i))
		if code != http.StatusCreated {
			t.Fatalf("bookmark %d: %d %s", i, code, body)
		}
	}
	code, hdr, body := e.doH(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/2000"}`, nil)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" {
		t.Fatalf("the 101st new Series: %d (Retry-After %q) %s, want 429 with Retry-After", code, hdr.Get("Retry-After"), body)
	}
	if msg := errorOf(t, body); !strings.Contains(msg, "new Series") || !strings.Contains(msg, "100") {
		t.Fatalf("429 reason %q does not name the limit", msg)
	}
	if _, err := e.st.GetSeries(context.Background(), "mangapill", "2000"); err == nil {
		t.Fatal("a refused bookmark created its Series")
	}
	if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/5"}`); code != http.StatusCreated {
		t.Fatalf("bookmarking an existing Series with no allowance left: %d %s, want 201", code, body)
	}
	if code, _ := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/1000"}`); code != http.StatusOK {
		t.Fatalf("re-adding a bookmark with no allowance left: %d, want 200", code)
	}
	if n := len(listBookmarks(t, e, tok)); n != 101 {
		t.Fatalf("%d bookmarks, want 101", n)
	}
}

func TestBookmarkCap(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token(floodReader)
	ctx := context.Background()
	r, err := e.st.GetReaderByDiscordID(ctx, floodReader)
	if err != nil {
		t.Fatal(err)
	}
	// 5000 bookmarks already (straight in SQL: the cap, not the rate, is
	// under test), and a Series another Reader follows; all of them read
	// ok once, so the never-read cap (ADR 0018) does not apply.
	seedBookmarks(t, e, r.ID, "", 5000, 5001, true)
	code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/5001"}`)
	if code != http.StatusConflict || !strings.Contains(errorOf(t, body), "5000 bookmarks") {
		t.Fatalf("bookmark 5001: %d %s, want 409 naming the cap", code, body)
	}
	got := postReads(t, e, tok, batch(read("mangapill", "5001", "3", "2026-05-01T10:00:00Z"),
		read("mangapill", "12", "3", "2026-05-01T10:00:00Z")))
	if got.Applied != 1 || len(got.Errors) != 1 || got.Errors[0].Index != 0 ||
		!strings.HasPrefix(got.Errors[0].Error, "bookmark_limit: ") {
		t.Fatalf("reads past the cap: %+v, want the new one refused with its reason and the known one applied", got)
	}
	if code, _ := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/12"}`); code != http.StatusOK {
		t.Fatalf("re-adding an existing bookmark at the cap: %d, want 200", code)
	}
	// Removing one makes room.
	if code, _ := e.do(tok, "DELETE", "/api/bookmarks/mangapill/12", ""); code != http.StatusNoContent {
		t.Fatalf("remove: %d", code)
	}
	if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/5001"}`); code != http.StatusCreated {
		t.Fatalf("after a removal: %d %s, want 201", code, body)
	}
}

// A Reader's batch can mix reads the API refuses (bad fields) with reads
// the limits refuse: each error names the read's own index in the request.
func TestProgressLimitErrorsKeepTheirIndex(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	e.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 0, MaxBookmarks: 5000})
	tok := e.token(floodReader)
	ctx := context.Background()
	r, err := e.st.GetReaderByDiscordID(ctx, floodReader)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.AddBookmark(ctx, r.ID, "mangapill", "12", "https://mangapill.com/manga/12"); err != nil {
		t.Fatal(err)
	}
	got := postReads(t, e, tok, batch(
		read("nosuchsite", "1", "1", "2026-05-01T10:00:00Z"),
		read("mangapill", "9100000", "1", "2026-05-01T10:00:00Z"),
		read("mangapill", "12", "not-a-number", "2026-05-01T10:00:00Z"),
		read("mangapill", "9100001", "1", "2026-05-01T10:00:00Z"),
		read("mangapill", "12", "4", "2026-05-01T10:00:00Z")))
	if got.Applied != 1 || len(got.Errors) != 4 {
		t.Fatalf("%+v, want 1 applied and 4 errors", got)
	}
	for k, want := range []struct {
		index int
		limit bool
	}{{0, false}, {1, true}, {2, false}, {3, true}} {
		er := got.Errors[k]
		if er.Index != want.index || strings.HasPrefix(er.Error, "new_series_limit: ") != want.limit {
			t.Fatalf("error %d: %+v, want index %d (limit refusal %v)", k, er, want.index, want.limit)
		}
	}
}

// A Reader who piles up bookmarks of made-up Series stops at the
// never-read cap (200 by default), far below the bookmark cap.
func TestNeverReadCapAPI(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token(floodReader)
	ctx := context.Background()
	r, err := e.st.GetReaderByDiscordID(ctx, floodReader)
	if err != nil {
		t.Fatal(err)
	}
	seedBookmarks(t, e, r.ID, "j", 200, 200, false)
	code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangapill.com/manga/777"}`)
	if code != http.StatusConflict || !strings.HasPrefix(errorOf(t, body), "never_read_limit: ") {
		t.Fatalf("bookmark 201 of never-read Series: %d %s, want 409 never_read_limit", code, body)
	}
	got := postReads(t, e, tok, batch(read("mangapill", "778", "3", "2026-05-01T10:00:00Z")))
	if len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0].Error, "never_read_limit: ") {
		t.Fatalf("a read of one more never-read Series: %+v", got)
	}
}

// seedBookmarks puts mangapill Series prefix1..prefixN in the database
// (read ok once when read is set: Latest Chapter 1) and bookmarks the
// first bookmarked of them for the Reader: straight in the store, since
// the caps, not the rate, are under test.
func seedBookmarks(t *testing.T, e *readerEnv, reader int64, prefix string, bookmarked, n int, read bool) {
	t.Helper()
	ctx := context.Background()
	series := make([]storetest.SeriesOpts, n)
	marks := make([]storetest.BookmarkOpts, bookmarked)
	for i := range series {
		id := prefix + strconv.Itoa(i+1)
		series[i] = storetest.SeriesOpts{Site: "mangapill", ID: id, URL: "https://mangapill.com/manga/" + id}
		if read {
			series[i].LatestNumber, series[i].SeenAt = "1", storetest.At(time.Now())
		}
		if i < bookmarked {
			marks[i] = storetest.BookmarkOpts{ReaderID: reader, Site: "mangapill", SeriesID: id}
		}
	}
	storetest.Series(ctx, t, e.st, series...)
	storetest.Bookmarks(ctx, t, e.st, marks...)
}
