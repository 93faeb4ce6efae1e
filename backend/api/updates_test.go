package api_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

// GET /api/updates: a Reader token's own New Chapters, newest first, a
// page at a time by the "next" cursor; no token or a wrong one is 401.
func TestUpdatesRoute(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	ctx := context.Background()
	tok := e.token("200")
	other := e.token("201")
	me, _ := e.st.GetReaderByDiscordID(ctx, "200")
	them, _ := e.st.GetReaderByDiscordID(ctx, "201")
	added := e.now.Add(-48 * time.Hour)
	storetest.Series(ctx, t, e.st, storetest.SeriesOpts{Site: "mangapill", ID: "1", Title: "One"},
		storetest.SeriesOpts{Site: "mangadex", ID: "secret", Title: "Theirs"})
	storetest.Bookmarks(ctx, t, e.st, storetest.BookmarkOpts{ReaderID: me.ID, Site: "mangapill", SeriesID: "1", CreatedAt: &added},
		storetest.BookmarkOpts{ReaderID: them.ID, Site: "mangadex", SeriesID: "secret", CreatedAt: &added})
	var evs []storetest.ChapterEventOpts
	for i := 1; i <= 5; i++ {
		evs = append(evs, storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: fmt.Sprint(i), Title: fmt.Sprint("Ch ", i),
			URL: fmt.Sprint("https://mangapill.test/1/", i), SeenAt: storetest.At(e.now.Add(-time.Duration(6-i) * time.Hour))},
			storetest.ChapterEventOpts{Site: "mangadex", SeriesID: "secret", Number: fmt.Sprint(i), SeenAt: storetest.At(e.now.Add(-time.Duration(6-i) * time.Hour))})
	}
	storetest.ChapterEvents(ctx, t, e.st, evs...)
	storetest.Progress(ctx, t, e.st, storetest.ProgressOpts{ReaderID: me.ID, Site: "mangapill", SeriesID: "1", Number: "3", ReadAt: &added})

	code, body := e.do(tok, "GET", "/api/updates?limit=2", "")
	p := decodeAs[client.UpdatesResponse](t, body)
	if code != 200 || len(p.Updates) != 2 || p.Next == nil || p.NextURL == nil {
		t.Fatalf("first page: %d %s", code, body)
	}
	u := p.Updates[0]
	if u.Site != "mangapill" || u.SeriesID != "1" || u.Title != "One" || u.Number != "5" || u.SeriesNumber != "5" || u.ChapterTitle != "Ch 5" ||
		u.URL != "https://mangapill.test/1/5" || u.Read || u.WorkID != nil || u.Day != u.SeenAt.UTC().Format("2006-01-02") || !u.SeenAt.Equal(e.now.Add(-time.Hour)) {
		t.Fatalf("first update: %+v", u)
	}
	var all []client.Update
	all = append(all, p.Updates...)
	for p.NextURL != nil {
		code, body = e.do(tok, "GET", *p.NextURL, "")
		if code != 200 {
			t.Fatalf("%s: %d %s", *p.NextURL, code, body)
		}
		p = decodeAs[client.UpdatesResponse](t, body)
		all = append(all, p.Updates...)
	}
	var got []string
	for _, u := range all {
		got = append(got, fmt.Sprint(u.Number, map[bool]string{true: " read", false: ""}[u.Read]))
	}
	if strings.Join(got, ",") != "5,4,3 read,2 read,1 read" {
		t.Fatalf("every page: %v", got)
	}
	// The other Reader sees theirs and never mine.
	_, body = e.do(other, "GET", "/api/updates", "")
	if theirs := decodeAs[client.UpdatesResponse](t, body); len(theirs.Updates) != 5 || strings.Contains(string(body), `"One"`) {
		t.Fatalf("another Reader's updates: %s", body)
	}
	for _, tk := range []string{"", "mb_not-a-token"} {
		if code, _ := e.do(tk, "GET", "/api/updates", ""); code != 401 {
			t.Fatalf("token %q: %d, want 401", tk, code)
		}
	}
}

// Attack: hostile query parameters are a 400 with a sentence naming the
// parameter, the value never echoed, nothing read.
func TestUpdatesRouteRefusesHostileParams(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200")
	for _, q := range []string{
		"limit=0", "limit=201", "limit=-1", "limit=abc", "limit=1.5", "limit=99999999999999999999", "limit=", "limit=1&limit=2",
		"before=", "before=abc", "before=1", "before=1.0", "before=-1.5", "before=1.2.3", "before=%00", "before=1.2&before=3.4",
		"before=" + url.QueryEscape("<script>alert(1)</script>"), "before=" + strings.Repeat("9", 5000) + ".1",
		"before=" + url.QueryEscape("1'; DROP TABLE chapter_events; --"),
	} {
		code, body := e.do(tok, "GET", "/api/updates?"+q, "")
		msg := decodeAs[struct {
			Error string `json:"error"`
		}](t, body).Error
		param, _, _ := strings.Cut(q, "=")
		if code != 400 || !strings.Contains(msg, param) || strings.Contains(msg, "script") || strings.Contains(msg, "DROP") {
			t.Errorf("?%.60s: %d %s", q, code, body)
		}
	}
	// An empty library is an empty page, not an error.
	code, body := e.do(tok, "GET", "/api/updates?limit=200", "")
	if p := decodeAs[client.UpdatesResponse](t, body); code != 200 || p.Updates == nil || len(p.Updates) != 0 || p.Next != nil {
		t.Fatalf("empty: %d %s", code, body)
	}
}
