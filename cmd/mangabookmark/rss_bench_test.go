package main

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/internal/proctest"
)

// BenchmarkResidentMemory measures the real backend binary's resident
// memory with 100k Series spread over the six Sites of a local simulator:
// first idle (poll switch off), then polling for a while. The target is
// under 80 MB in both. It runs once whatever b.N is.
func BenchmarkResidentMemory(b *testing.B) {
	const total = 100_000
	per := total / len(sitesim.SiteNames)
	dsn := dbtest.NewURL(b)
	sim := simtest.Start(b, sitesim.Config{SeriesPerSite: per})
	reg := simtest.Registry(b, sim)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	var rows [][]any
	for _, name := range sitesim.SiteNames {
		for _, id := range sim.SeriesIDs(name, per) {
			ref, err := reg.Canonicalize(sim.SeriesURL(name, id))
			if err != nil {
				b.Fatal(err)
			}
			rows = append(rows, []any{ref.Site, ref.SeriesID, ref.URL})
		}
	}
	if _, err := st.Pool().CopyFrom(ctx, pgx.Identifier{"series"}, []string{"site", "series_id", "url"}, pgx.CopyFromRows(rows)); err != nil {
		b.Fatal(err)
	}
	st.Close()

	measure := func(poll bool, settle time.Duration) (rss, hwm float64) {
		addr := proctest.FreeAddr(b)
		cmd := exec.Command(proctest.Binary(b), "serve")
		cmd.Env = proctest.CleanEnv("DATABASE_URL="+dsn, "LISTEN_ADDR="+addr, "SITE_ORIGINS="+sim.OriginsValue(),
			"TOKEN_KEY=0123456789abcdef0123456789abcdef", "LATEST_CHAPTER_POLL_ENABLED="+strconv.FormatBool(poll),
			"LOG_LEVEL=warn")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}()
		up := false
		for i := 0; i < 100 && !up; i++ {
			if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
				resp.Body.Close()
				up = true
			} else {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if !up {
			b.Fatalf("backend did not answer /healthz: %s", stderr.String())
		}
		time.Sleep(settle)
		rssKB, hwmKB := proctest.Memory(cmd.Process.Pid)
		if rssKB == 0 {
			b.Fatalf("backend exited: %s", stderr.String())
		}
		return float64(rssKB) / 1024, float64(hwmKB) / 1024
	}
	b.ResetTimer()
	idle, idleHWM := measure(false, 3*time.Second)
	polling, pollHWM := measure(true, 30*time.Second)
	b.StopTimer()
	var hits int64
	for _, name := range sitesim.SiteNames {
		hits += sim.Hits(name)
	}
	b.Logf("idle rss %.1f MB (peak %.1f), polling rss %.1f MB (peak %.1f), %d simulator hits", idle, idleHWM, polling, pollHWM, hits)
	b.ReportMetric(idle, "idle_rss_MB")
	b.ReportMetric(polling, "polling_rss_MB")
	b.ReportMetric(max(idleHWM, pollHWM), "peak_rss_MB")
}
