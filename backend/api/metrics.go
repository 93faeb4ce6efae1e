package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"mangabookmark/backend/api/client"
)

// httpCounters counts answered requests by status class, for /metrics.
type httpCounters struct{ byClass [6]atomic.Int64 }

func (c *httpCounters) add(status int) {
	if i := status / 100; i >= 1 && i <= 5 {
		c.byClass[i].Add(1)
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// laneStates is every Lane state word, so each gets a series even at zero.
var laneStates = []string{client.StateRunning, client.StateIdle, client.StatePaused, client.StateRefusing,
	client.StateBrowserDown, client.StateNoBrowser, client.StateAsleep, client.StateDisabled}

// metrics writes the Prometheus text exposition: build info, request
// counts, and one gauge family per Lane fact the admin API shows.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	fmt.Fprintf(&b, "# HELP mangabookmark_build_info Build of the running backend.\n# TYPE mangabookmark_build_info gauge\n")
	fmt.Fprintf(&b, "mangabookmark_build_info{version=%q} 1\n", s.Version)
	fmt.Fprintf(&b, "# HELP mangabookmark_http_requests_total Requests answered, by status class.\n# TYPE mangabookmark_http_requests_total counter\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "mangabookmark_http_requests_total{class=\"%dxx\"} %d\n", i, s.counters.byClass[i].Load())
	}
	if s.Store != nil {
		s.laneMetrics(r.Context(), &b)
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// laneMetrics writes whether the database answered this scrape and, when it
// did, one gauge family per Lane fact.
func (s *Server) laneMetrics(ctx context.Context, b *strings.Builder) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	lanes, err := s.adminLaneViews(ctx, s.Sites.All())
	up := 1
	if err != nil {
		s.Log.Warn("metrics: lane read failed", "error", err)
		up = 0
	}
	fmt.Fprintf(b, "# HELP mangabookmark_up Whether the database answered this scrape.\n# TYPE mangabookmark_up gauge\nmangabookmark_up %d\n", up)
	if err != nil {
		return
	}
	gauge := func(name, help string, val func(i int) float64) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
		for i, l := range lanes {
			fmt.Fprintf(b, "%s{site=%q} %g\n", name, l.Site, val(i))
		}
	}
	gauge("mangabookmark_lane_series", "Series the Lane polls.", func(i int) float64 { return float64(lanes[i].Series) })
	gauge("mangabookmark_lane_due", "Series due now.", func(i int) float64 { return float64(lanes[i].Due) })
	gauge("mangabookmark_lane_behind_by_seconds", "How long past Rest the oldest due Series has waited.", func(i int) float64 { return float64(lanes[i].BehindByS) })
	gauge("mangabookmark_lane_failing", "Series holding a failure row.", func(i int) float64 { return float64(lanes[i].Failing) })
	gauge("mangabookmark_lane_last_pass_timestamp_seconds", "When the Lane's last pass finished (0: never).", func(i int) float64 {
		if p := lanes[i].LastPass; p != nil {
			return float64(p.FinishedAt.Unix())
		}
		return 0
	})
	fmt.Fprintf(b, "# HELP mangabookmark_lane_state The Lane's state (1 for the current one).\n# TYPE mangabookmark_lane_state gauge\n")
	for _, l := range lanes {
		for _, st := range laneStates {
			v := 0
			if l.State == st {
				v = 1
			}
			fmt.Fprintf(b, "mangabookmark_lane_state{site=%q,state=%q} %d\n", l.Site, st, v)
		}
	}
}
