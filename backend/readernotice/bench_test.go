package readernotice_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// benchSecret is a webhook secret in Standard Webhooks' shape ("whsec_"
// and the base64 of 32 bytes); a secret of another shape signs nothing,
// and its Digests are never sent.
const benchSecret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

// sink is a local outlet that answers 204 at once.
func sink(b *testing.B) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(s.Close)
	return s
}

// seedOwed makes n Readers, each with a webhook at url and digest_s 0,
// bookmarking one Series, then reads a New Chapter: n owed notices.
func seedOwed(b *testing.B, st *store.Store, n int, url string, now time.Time) {
	b.Helper()
	ctx := context.Background()
	storetest.Series(ctx, b, st, storetest.SeriesOpts{Site: "mangapill", ID: "s", URL: "https://mangapill.com/manga/s"})
	seedReaders(ctx, b, st, n, []string{"s"}, url, benchSecret)
	if _, err := st.Pool().Exec(ctx, `ANALYZE readers, bookmarks, reader_notify`); err != nil {
		b.Fatal(err)
	}
	if _, err := st.RecordOK(ctx, "mangapill", "s", store.ReadFacts{Number: "1"}, now); err != nil {
		b.Fatal(err)
	}
	if r, err := st.RecordOK(ctx, "mangapill", "s", store.ReadFacts{Number: "2"}, now); err != nil || r.Owed != n {
		b.Fatalf("seed: owed %d, %v", r.Owed, err)
	}
	// A fresh table has no statistics yet; autovacuum analyzes a grown
	// one within a minute in service, which a benchmark does not wait for.
	if _, err := st.Pool().Exec(ctx, `ANALYZE reader_notices, chapter_events`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkNoticeDrain drains 10,000 owed notices (10,000 Readers, one
// Digest each) through a local webhook: Digests made, leased, signed, sent
// and marked. BenchmarkNoticeDrain/bare_post is the reference: the same
// 10,000 POSTs with the same client and concurrency, no database.
func BenchmarkNoticeDrain(b *testing.B) {
	const n = 10_000
	out := sink(b)
	b.Run("drain", func(b *testing.B) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			st := dbtest.New(b)
			now := time.Now()
			seedOwed(b, st, n, out.URL+"/hook", now)
			svc, err := readernotice.New(readernotice.Config{Store: st, Now: func() time.Time { return now.Add(time.Second) },
				Guard: netguard.Guard{AllowNets: netguard.Loopback()}})
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if err := svc.RunOnce(context.Background()); err != nil {
				b.Fatal(err)
			}
			total += time.Since(start)
			var sent int
			if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM notice_deliveries WHERE sent_at IS NOT NULL`).Scan(&sent); err != nil || sent != n {
				b.Fatalf("sent %d of %d: %v", sent, n, err)
			}
		}
		b.ReportMetric(float64(n*b.N)/total.Seconds(), "notices/s")
	})
	b.Run("bare_post", func(b *testing.B) {
		c := netguard.Guard{AllowNets: netguard.Loopback()}.Client()
		var total time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			sem := make(chan struct{}, 16)
			var wg sync.WaitGroup
			for j := 0; j < n; j++ {
				sem <- struct{}{}
				wg.Add(1)
				go func() {
					defer func() { <-sem; wg.Done() }()
					resp, err := c.Post(out.URL+"/hook", "application/json", strings.NewReader(`{"event":"new_chapters"}`))
					if err == nil {
						resp.Body.Close()
					}
				}()
			}
			wg.Wait()
			total += time.Since(start)
		}
		b.ReportMetric(float64(n*b.N)/total.Seconds(), "notices/s")
	})
}

// BenchmarkNoticeLatency measures a Chapter Event seen to its Digest
// received by a local webhook, with digest_s 0 and the background sender
// as serve runs it: 100 events, 50 ms apart, to 20 Readers each. p99_ms is
// held to target_ms (5 s).
func BenchmarkNoticeLatency(b *testing.B) {
	var mu sync.Mutex
	var delays []time.Duration
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(r.Body)
		i := strings.Index(string(body), `"seen_at":"`)
		if i >= 0 {
			if seen, err := time.Parse(time.RFC3339Nano, string(body[i+11:i+11+strings.IndexByte(string(body[i+11:]), '"')])); err == nil {
				mu.Lock()
				delays = append(delays, at.Sub(seen))
				mu.Unlock()
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	for i := 0; i < b.N; i++ {
		st := dbtest.New(b)
		ctx := context.Background()
		const events, readers = 100, 20
		series := make([]storetest.SeriesOpts, events)
		ids := make([]string, events)
		for e := range series {
			ids[e] = fmt.Sprint("s", e+1)
			series[e] = storetest.SeriesOpts{Site: "mangapill", ID: ids[e], URL: fmt.Sprint("https://mangapill.com/manga/", e+1), MaxNumber: "0"}
		}
		storetest.Series(ctx, b, st, series...)
		seedReaders(ctx, b, st, readers, ids, recv.URL+"/h", benchSecret)
		svc, err := readernotice.New(readernotice.Config{Store: st, Guard: netguard.Guard{AllowNets: netguard.Loopback()}})
		if err != nil {
			b.Fatal(err)
		}
		svc.Start(ctx)
		for e := 1; e <= events; e++ {
			if _, err := st.RecordOK(ctx, "mangapill", fmt.Sprint("s", e), store.ReadFacts{Number: "1"}, time.Now()); err != nil {
				b.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // the events' spacing, not a wait for a result
		}
		deadline := time.Now().Add(time.Minute)
		for {
			var pending int
			_ = st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM reader_notices WHERE done_at IS NULL) + (SELECT count(*) FROM notice_deliveries WHERE sent_at IS NULL)`).Scan(&pending)
			if pending == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		svc.Stop()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(delays) == 0 {
		b.Fatal("no Digest arrived")
	}
	slices.Sort(delays)
	b.ReportMetric(float64(delays[len(delays)*99/100].Milliseconds()), "p99_ms")
	b.ReportMetric(float64(delays[len(delays)/2].Milliseconds()), "p50_ms")
	b.ReportMetric(5000, "target_ms")
	b.ReportMetric(float64(len(delays))/float64(b.N), "digests/op")
}

// seedReaders makes n Readers r1..rN, each bookmarking the mangapill
// Series ids since a day ago, with a webhook at url and digest_s 0.
func seedReaders(ctx context.Context, b *testing.B, st *store.Store, n int, ids []string, url, secret string) {
	b.Helper()
	opts := make([]storetest.ReaderOpts, n)
	for i := range opts {
		opts[i] = storetest.ReaderOpts{DiscordID: fmt.Sprint("r", i+1)}
	}
	readers := storetest.Readers(ctx, b, st, opts...)
	var marks []storetest.BookmarkOpts
	notify := make([]storetest.NotifyOpts, n)
	day := storetest.At(time.Now().Add(-24 * time.Hour))
	for i, r := range readers {
		for _, id := range ids {
			marks = append(marks, storetest.BookmarkOpts{ReaderID: r, Site: "mangapill", SeriesID: id, CreatedAt: day})
		}
		notify[i] = storetest.NotifyOpts{ReaderID: r, WebhookURL: url, WebhookSecret: secret}
	}
	storetest.Bookmarks(ctx, b, st, marks...)
	storetest.NotifySettings(ctx, b, st, notify...)
}
