package api_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sort"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
)

// adminBenchWorld seeds a server with series Series, failing failure rows
// and 14 days of passes, then measures GET path: b.N requests on loopback,
// reporting the p50 and p99 latency.
func adminBench(b *testing.B, series, failing int, paths ...string) {
	f := apitest.StartEmpty(b)
	start := time.Now()
	if err := admintest.SeedLarge(context.Background(), f.Store, admintest.Now, series, failing, 14); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d series, %d failing, 14 days of passes in %v", series, failing, time.Since(start).Round(time.Millisecond))
	for _, path := range paths {
		b.Run(path, func(b *testing.B) {
			hc := &http.Client{}
			get := func() {
				req, _ := http.NewRequest("GET", f.URL()+path, nil)
				req.Header.Set("Authorization", "Bearer "+apitest.OwnerToken)
				resp, err := hc.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				var buf [32 << 10]byte
				for {
					if _, err := resp.Body.Read(buf[:]); err != nil {
						break
					}
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("GET %s = %d", path, resp.StatusCode)
				}
			}
			get() // warm the connection and the caches
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				get()
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50_ms")
			b.ReportMetric(pct(0.99), "p99_ms")
		})
	}
}

func requireLarge(b *testing.B) {
	if os.Getenv("MB_BENCH_LARGE") != "1" {
		b.Skip("set MB_BENCH_LARGE=1 to seed 1M Series (takes a minute)")
	}
}

// BenchmarkAdminLanes1M: GET /api/admin/lanes over 1M Series, 100k
// failing rows and 14 days of passes.
func BenchmarkAdminLanes1M(b *testing.B) {
	requireLarge(b)
	adminBench(b, 1_000_000, 100_000, "/api/admin/lanes")
}

// BenchmarkAdminFailing: GET /api/admin/failing (default limit, and
// filtered) over the same world.
func BenchmarkAdminFailing(b *testing.B) {
	requireLarge(b)
	adminBench(b, 1_000_000, 100_000, "/api/admin/failing", "/api/admin/failing?site=weebcentral&outcome=errors",
		"/api/admin/failing?site=comix", "/api/admin/lanes/weebcentral/passes?limit=200")
}

// BenchmarkAdmin10k is the same measure over 10k Series and 1k failing
// rows; it always runs under -bench.
func BenchmarkAdmin10k(b *testing.B) {
	adminBench(b, 10_000, 1_000, "/api/admin/lanes", "/api/admin/failing",
		fmt.Sprintf("/api/admin/failing?site=%s", admintest.SiteNames[0]))
}
