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

// measure runs n operations over benchClients goroutines and returns the
// wall time and every latency, sorted.
func measure(n int, op func(worker int, seq int64) error) (time.Duration, []time.Duration, error) {
	var next atomic.Int64
	lat := make([][]time.Duration, benchClients)
	var wg sync.WaitGroup
	var firstErr atomic.Value
	start := time.Now()
	for w := 0; w < benchClients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				t0 := time.Now()
				if err := op(w, seqs[w].Add(1)); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	err, _ := firstErr.Load().(error)
	return elapsed, all, err
}

// seqs keeps each client's chapter counter across rounds, so every
// operation moves Progress forward (a real write).
var seqs [benchClients]atomic.Int64

func p99(all []time.Duration) time.Duration {
	if len(all) == 0 {
		return 0
	}
	return all[(len(all)*99)/100]
}

// runClients runs b.N operations and reports throughput and p99 latency.
func runClients(b *testing.B, op func(worker int, seq int64) error) {
	b.Helper()
	b.ResetTimer()
	elapsed, all, err := measure(b.N, op)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(p99(all).Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "reads/s")
}

// BenchmarkProgressSync: 50 clients POST /api/progress (one read each,
// always a new chapter, so every request writes) to the real server over
// loopback, with real token authentication.
func BenchmarkProgressSync(b *testing.B) {
	runClients(b, syncOp(b))
}

// syncOp sets up the real server with one token per client and returns
// one POST /api/progress.
func syncOp(b *testing.B) func(int, int64) error {
	st := dbtest.New(b)
	ctx := context.Background()
	svc, err := auth.New(auth.Config{Store: st, TokenKey: []byte(testTokenKey), OwnerDiscordID: ownerID})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(newServer(b, api.Config{Store: st, Sites: testRegistry(b), Auth: svc, BaseURL: baseURL, NoLimits: true}))
	b.Cleanup(srv.Close)
	tokens := make([]string, benchClients)
	for i := range tokens {
		tok, _, err := svc.MintTokenRow(ctx, fmt.Sprintf("3%017d", i), "bench", "bench")
		if err != nil {
			b.Fatal(err)
		}
		tokens[i] = tok
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: benchClients * 2, MaxIdleConnsPerHost: benchClients * 2}}
	return func(w int, seq int64) error {
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
	}
}

// BenchmarkProgressRaw runs the same upsert straight over pgx from 50
// goroutines, one statement per round trip: the reference the API is
// measured against.
func BenchmarkProgressRaw(b *testing.B) {
	runClients(b, rawOp(b))
}

// rawOp sets up a database with one Reader per client, each with its
// bookmark (as the API's first read of a client leaves it), and returns
// one ProgressUpsertSQL over pgx: the statement the API runs per read.
func rawOp(b *testing.B) func(int, int64) error {
	st := dbtest.New(b)
	ctx := context.Background()
	readers := make([]int64, benchClients)
	for i := range readers {
		r, err := st.UpsertReader(ctx, fmt.Sprintf("3%017d", i), "bench", nil)
		if err != nil {
			b.Fatal(err)
		}
		readers[i] = r.ID
		id := fmt.Sprint(i + 1)
		if _, err := st.AddBookmark(ctx, r.ID, "mangapill", id, "https://mangapill.com/manga/"+id); err != nil {
			b.Fatal(err)
		}
	}
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	return func(w int, seq int64) error {
		var have, moved bool
		var past *string
		err := st.Pool().QueryRow(ctx, store.ProgressUpsertSQL, readers[w], "mangapill", fmt.Sprint(w+1),
			fmt.Sprint(seq), "", at).Scan(&have, &moved, &past)
		if err != nil {
			return err
		}
		if !have || !moved {
			return fmt.Errorf("raw upsert moved nothing")
		}
		return nil
	}
}

// BenchmarkProgressRatio alternates rounds of the API and the raw upsert so
// both see the same machine load, and reports their rates and the ratio
// (target: api/raw >= 0.8). Each b.N iteration is one round of 2000
// operations of each. The raw side sends one upsert per round trip; the
// API merges the one-read requests that arrive together into one
// statement (store/progress_merge.go), so it may beat that reference.
func BenchmarkProgressRatio(b *testing.B) {
	const round = 2000
	api, raw := syncOp(b), rawOp(b)
	var apiT, rawT time.Duration
	var apiLat, rawLat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		el, lat, err := measure(round, api)
		if err != nil {
			b.Fatal(err)
		}
		apiT += el
		apiLat = append(apiLat, lat...)
		el, lat, err = measure(round, raw)
		if err != nil {
			b.Fatal(err)
		}
		rawT += el
		rawLat = append(rawLat, lat...)
	}
	b.StopTimer()
	sort.Slice(apiLat, func(i, j int) bool { return apiLat[i] < apiLat[j] })
	sort.Slice(rawLat, func(i, j int) bool { return rawLat[i] < rawLat[j] })
	apiRate := float64(b.N*round) / apiT.Seconds()
	rawRate := float64(b.N*round) / rawT.Seconds()
	b.ReportMetric(apiRate, "api_reads/s")
	b.ReportMetric(rawRate, "raw_reads/s")
	b.ReportMetric(float64(p99(apiLat).Microseconds())/1000, "api_p99_ms")
	b.ReportMetric(float64(p99(rawLat).Microseconds())/1000, "raw_p99_ms")
	b.ReportMetric(apiRate/rawRate, "ratio")
}
