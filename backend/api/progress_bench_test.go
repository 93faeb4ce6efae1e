package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// benchClients is the number of concurrent clients of both benchmarks.
const benchClients = 50

// runClients runs b.N operations over benchClients goroutines and reports
// throughput and p99 latency. op(worker, seq) does one operation.
func runClients(b *testing.B, op func(worker int, seq int64) error) {
	b.Helper()
	var next atomic.Int64
	lat := make([][]time.Duration, benchClients)
	var wg sync.WaitGroup
	var firstErr atomic.Value
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < benchClients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var seq int64
			for next.Add(1) <= int64(b.N) {
				seq++
				t0 := time.Now()
				if err := op(w, seq); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := firstErr.Load().(error); err != nil {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) > 0 {
		p99 := all[(len(all)*99)/100]
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99_ms")
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "reads/s")
}

// BenchmarkProgressSync: 50 clients POST /api/progress (one read each,
// always a new chapter, so every request writes) to the real server over
// loopback, with real token authentication.
func BenchmarkProgressSync(b *testing.B) {
	st := dbtest.New(b)
	ctx := context.Background()
	svc := auth.New(st, []byte(testTokenKey), ownerID)
	srv := httptest.NewServer(api.New(api.Deps{Store: st, Sites: testRegistry(b), Auth: svc, BaseURL: baseURL, NoLimits: true}))
	defer srv.Close()
	tokens := make([]string, benchClients)
	for i := range tokens {
		tok, err := svc.MintToken(ctx, fmt.Sprintf("3%017d", i), "bench", "bench")
		if err != nil {
			b.Fatal(err)
		}
		tokens[i] = tok
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: benchClients * 2, MaxIdleConnsPerHost: benchClients * 2}}
	runClients(b, func(w int, seq int64) error {
		body := fmt.Sprintf(`{"reads":[{"site":"mangapill","series_id":"%d","number":"%d","url":"","read_at":"2026-05-01T10:00:00Z"}]}`, w+1, seq)
		req, _ := http.NewRequest("POST", srv.URL+"/api/progress", bytes.NewBufferString(body))
		req.Header.Set("Authorization", "Bearer "+tokens[w])
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`"applied":1`)) {
			return fmt.Errorf("progress: %d %s", resp.StatusCode, out)
		}
		return nil
	})
}

// BenchmarkProgressRaw runs the same upsert straight over pgx from 50
// goroutines on the same pool: the ceiling the API is measured against.
func BenchmarkProgressRaw(b *testing.B) {
	st := dbtest.New(b)
	ctx := context.Background()
	readers := make([]int64, benchClients)
	for i := range readers {
		r, err := st.UpsertReader(ctx, fmt.Sprintf("3%017d", i), "bench", nil)
		if err != nil {
			b.Fatal(err)
		}
		readers[i] = r.ID
	}
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	runClients(b, func(w int, seq int64) error {
		id := fmt.Sprint(w + 1)
		tag, err := st.Pool().Exec(ctx, store.ProgressUpsertSQL, readers[w], "mangapill", id,
			"https://mangapill.com/manga/"+id, fmt.Sprint(seq), "", at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("raw upsert moved nothing")
		}
		return nil
	})
}
