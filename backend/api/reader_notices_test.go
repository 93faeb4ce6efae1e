package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"

	"mangabookmark/backend/api"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

// noticeEnv is a readerEnv with a notice service on the same clock.
func noticeEnv(t *testing.T) (*readerEnv, *readernotice.Service) {
	t.Helper()
	var svc *readernotice.Service
	var e *readerEnv
	e = newReaderEnv(t, func(c *api.Config) {
		var err error
		c.Metrics = api.NewMetrics()
		svc, err = readernotice.New(readernotice.Config{Store: c.Store, Key: []byte(testTokenKey), BaseURL: baseURL, Recorder: c.Metrics.NoticeRecorder(),
			Now: func() time.Time { return e.now }, Guard: netguard.Guard{AllowNets: netguard.Loopback(), Timeout: 2 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		c.ReaderNotices = svc
	})
	e.now = time.Now().Add(time.Minute).Truncate(time.Second)
	return e, svc
}

func decodeAs[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestReaderNoticeRoutes(t *testing.T) {
	t.Parallel()
	e, svc := noticeEnv(t)
	ctx := context.Background()
	tok := e.token("200")
	r, _ := e.st.GetReaderByDiscordID(ctx, "200")
	if _, err := e.st.AddBookmark(ctx, r.ID, "mangapill", "1", "https://mangapill.com/manga/1/x"); err != nil {
		t.Fatal(err)
	}
	storetest.SetBookmarks(ctx, t, e.st, storetest.BookmarkSet{CreatedAt: storetest.At(time.Now().Add(-24 * time.Hour))})
	for _, n := range []string{"10", "11"} {
		if _, err := e.st.RecordOK(ctx, "mangapill", "1", store.ReadFacts{Title: "One", Number: n, ChURL: "https://mangapill.com/chapters/1-" + n}, e.now); err != nil {
			t.Fatal(err)
		}
	}

	code, body := e.do(tok, "GET", "/api/chapters", "")
	ch := decodeAs[client.ChaptersResponse](t, body)
	if code != 200 || len(ch.Chapters) != 1 || ch.Chapters[0].Number != "11" || ch.Chapters[0].Title != "One" {
		t.Fatalf("GET /api/chapters: %d %s", code, body)
	}
	if code, body := e.do(tok, "GET", "/api/chapters?limit=501", ""); code != 400 || !strings.Contains(string(body), "limit") {
		t.Fatalf("limit 501: %d %s", code, body)
	}
	if code, _ := e.do(e.token("201"), "GET", "/api/chapters", ""); code != 200 {
		t.Fatal("another Reader's chapters")
	} else if _, b := e.do(e.token("201"), "GET", "/api/chapters", ""); strings.Contains(string(b), "One") {
		t.Fatalf("another Reader sees this Reader's events: %s", b)
	}

	code, body = e.do(tok, "GET", "/api/me/notify", "")
	n := decodeAs[client.Notify](t, body)
	if code != 200 || n.DigestS != 900 || n.DiscordAvailable || !strings.HasPrefix(n.FeedURL, baseURL+"/feeds/mbf_") || n.Outlets == nil {
		t.Fatalf("GET /api/me/notify: %d %s", code, body)
	}
	feedPath := strings.TrimPrefix(n.FeedURL, baseURL)
	code, hdr, feed := e.doH("", "GET", feedPath, "", nil)
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("feed: %d %v", code, hdr)
	}
	f, err := gofeed.NewParser().ParseString(string(feed))
	if err != nil || len(f.Items) != 1 || f.Items[0].Link != "https://mangapill.com/chapters/1-11" {
		t.Fatalf("feed parse: %v %s", err, feed)
	}
	code, body = e.do(tok, "POST", "/api/me/feed/rotate", "")
	rot := decodeAs[client.FeedRotated](t, body)
	if code != 200 || rot.FeedURL == n.FeedURL {
		t.Fatalf("rotate: %d %s", code, body)
	}
	if code, _ := e.do("", "GET", feedPath, ""); code != 404 {
		t.Fatalf("the rotated feed URL answers %d, want 404", code)
	}
	if code, _ := e.do("", "GET", strings.TrimPrefix(rot.FeedURL, baseURL), ""); code != 200 {
		t.Fatalf("the new feed URL answers %d", code)
	}
	if code, _ := e.do("", "POST", "/act/read/1.9999999999.forged", ""); code != 404 {
		t.Fatal("a forged mark-read link was accepted")
	}
	if code, _ := e.do("", "GET", "/feeds/mbf_nope.atom", ""); code != 404 {
		t.Fatal("a made-up feed token opened a feed")
	}
	if code, _ := e.do("", "GET", strings.TrimSuffix(strings.TrimPrefix(rot.FeedURL, baseURL), ".atom"), ""); code != 404 {
		t.Fatal("the feed without .atom was served")
	}

	for _, bad := range []struct{ body, field string }{
		{`{"digest_s":-5}`, "digest_s"},
		{`{"digest_s":90000}`, "digest_s"},
		{`{"discord":true}`, "discord"},
		{`{"ntfy_url":"ftp://x.example/t"}`, "ntfy_url"},
		{`{"webhook_url":"not a url"}`, "webhook_url"},
	} {
		if code, body := e.do(tok, "PUT", "/api/me/notify", bad.body); code != 400 || !strings.Contains(string(body), bad.field) {
			t.Errorf("PUT %s: %d %s", bad.body, code, body)
		}
	}
	var mu sync.Mutex
	var got [][]byte
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, b)
		mu.Unlock()
	}))
	defer hook.Close()
	code, body = e.do(tok, "PUT", "/api/me/notify", `{"digest_s":0,"webhook_url":"`+hook.URL+`/h"}`)
	n = decodeAs[client.Notify](t, body)
	if code != 200 || n.WebhookSecret == "" || !n.WebhookSecretSet || n.DigestS != 0 {
		t.Fatalf("PUT webhook: %d %s", code, body)
	}
	if _, body := e.do(tok, "GET", "/api/me/notify", ""); strings.Contains(string(body), n.WebhookSecret) || strings.Contains(string(body), "webhook_secret\"") {
		t.Fatalf("GET shows the secret again: %s", body)
	}
	code, body = e.do(tok, "POST", "/api/me/notify/test", "")
	res := decodeAs[client.TestResults](t, body)
	if code != 200 || len(res.Results) != 1 || !res.Results[0].OK || res.Results[0].Outlet != "webhook" {
		t.Fatalf("test notice: %d %s", code, body)
	}

	code, body = e.do(tok, "PUT", "/api/bookmarks/mangapill/1/notify", `{"mode":"pile","pile":4,"pile_days":3}`)
	bm := decodeAs[client.Bookmark](t, body)
	if code != 200 || bm.Notify == nil || *bm.Notify != (client.BookmarkNotify{Mode: "pile", Pile: 4, PileDays: 3}) {
		t.Fatalf("bookmark notify: %d %s", code, body)
	}
	if _, body := e.do(tok, "GET", "/api/bookmarks", ""); !strings.Contains(string(body), `"notify":{"mode":"pile","pile":4,"pile_days":3}`) {
		t.Fatalf("the bookmark list lacks notify: %s", body)
	}
	for _, bad := range []string{`{"mode":"loud"}`, `{"pile":0}`, `{"pile_days":61}`, `{"mode":"each","extra":1}`} {
		if code, body := e.do(tok, "PUT", "/api/bookmarks/mangapill/1/notify", bad); code != 400 {
			t.Errorf("bookmark notify %s: %d %s", bad, code, body)
		}
	}
	if code, _ := e.do(tok, "PUT", "/api/bookmarks/mangapill/nope/notify", `{"mode":"off"}`); code != 404 {
		t.Errorf("unknown bookmark: %d", code)
	}
	if code, _ := e.do(e.token("201"), "PUT", "/api/bookmarks/mangapill/1/notify", `{"mode":"off"}`); code != 404 {
		t.Errorf("another Reader's bookmark: %d", code)
	}

	code, body = e.do(tok, "PUT", "/api/bookmarks/mangapill/1/notify", `{"mode":"each"}`)
	if code != 200 {
		t.Fatal(code, string(body))
	}
	if err := svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	deliveries := len(got)
	mu.Unlock()
	if deliveries != 2 { // the test notice and the Digest of chapter 11
		t.Fatalf("%d webhook calls, want the test notice and one Digest", deliveries)
	}
	_, metrics := e.do(e.token(ownerID), "GET", "/metrics", "")
	for _, want := range []string{`mangabookmark_reader_notices_total{outlet="webhook",result="sent"} 1`, `mangabookmark_reader_notices_total{outlet="webhook",result="owed"} 1`, "mangabookmark_notice_delay_seconds_count 1",
		`mangabookmark_reader_notices_total{outlet="webhook",result="failed"} 0`, `mangabookmark_reader_notices_total{outlet="ntfy",result="dropped"} 0`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	code, body = e.do(e.token(ownerID), "GET", "/api/admin/notices", "")
	an := decodeAs[client.NoticesResponse](t, body)
	if code != 200 || an.Readers == nil || an.Readers.Sent24h != 1 || an.Readers.Owed != 0 {
		t.Fatalf("admin notices: %d %s", code, body)
	}
	for _, secret := range []string{feedPath, strings.TrimPrefix(rot.FeedURL, baseURL+"/feeds/"), n.WebhookSecret} {
		if strings.Contains(e.logs.String(), strings.TrimSuffix(strings.TrimPrefix(secret, "/feeds/"), ".atom")) {
			t.Fatalf("a secret reached the log: %s", e.logs.String())
		}
	}
}
