package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"mangabookmark/backend/sites"
	"mangabookmark/client"
)

// Metrics is the Prometheus registry /metrics serves: the Go and process
// collectors, build info, requests by status class, request latency by
// route pattern and status class, Lane read latency by Site and outcome,
// and the Lane gauges read from the database at each scrape. One Metrics
// serves one Server.
type Metrics struct {
	reg       *prometheus.Registry
	build     *prometheus.GaugeVec
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	laneReads *prometheus.HistogramVec
	notice    noticeMetrics  // Reader notices (metrics_notices.go)
	tracker   trackerMetrics // tracker requests (metrics_trackers.go)
	sync      syncMetrics    // phone sync requests (metrics_sync.go)
}

// NewMetrics builds the registry with every family but the Lane gauges,
// which New adds for its Server.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		build: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mangabookmark_build_info", Help: "Build of the running backend.",
		}, []string{"version"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mangabookmark_http_requests_total", Help: "Requests answered, by status class.",
		}, []string{"class"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mangabookmark_http_request_duration_seconds",
			Help:    "Time to answer a request, by route pattern and status class.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "class"}),
		laneReads: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mangabookmark_lane_read_duration_seconds",
			Help:    "Time one Lane read of one Series took, by Site and outcome.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 10), // 50ms to about 25s
		}, []string{"site", "outcome"}),
	}
	for i := 1; i <= 5; i++ {
		m.requests.WithLabelValues(strconv.Itoa(i) + "xx") // every class shows, even at zero
	}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.build, m.requests, m.latency, m.laneReads)
	return m
}

// ObserveLaneRead records one Lane read; the Lanes call it through
// lanes.Config.ObserveRead.
func (m *Metrics) ObserveLaneRead(site string, outcome sites.Outcome, took time.Duration) {
	m.laneReads.WithLabelValues(site, string(outcome)).Observe(took.Seconds())
}

// observeRequest counts one answered request and its latency. route is the
// ServeMux pattern that served it ("/" for the catch-all 404, "unmatched"
// when none did), so the label set stays as small as the route table.
func (m *Metrics) observeRequest(route string, status int, took time.Duration) {
	if status < 100 || status > 599 {
		return
	}
	class := strconv.Itoa(status/100) + "xx"
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(class).Inc()
	m.latency.WithLabelValues(route, class).Observe(took.Seconds())
}

// handler serves the registry in the Prometheus exposition format.
func (m *Metrics) handler(log func(msg string, args ...any)) http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: promLogger(log)})
}

// promLogger adapts a slog-style call to promhttp's Println logger.
type promLogger func(msg string, args ...any)

func (l promLogger) Println(v ...any) { l("cannot gather /metrics", "error", fmt.Sprint(v...)) }

// laneCollector reads the Lanes at each scrape: whether the database
// answered (mangabookmark_up) and, when it did, one gauge family per Lane
// fact the admin API shows.
type laneCollector struct {
	s                                             *Server
	up, series, due, behind, failing, last, state *prometheus.Desc
	overflow                                      *prometheus.Desc // listing_overflow (ADR 0015)
}

func newLaneCollector(s *Server) *laneCollector {
	site := []string{"site"}
	return &laneCollector{
		s:       s,
		up:      prometheus.NewDesc("mangabookmark_up", "Whether the database answered this scrape.", nil, nil),
		series:  prometheus.NewDesc("mangabookmark_lane_series", "Series the Lane polls.", site, nil),
		due:     prometheus.NewDesc("mangabookmark_lane_due", "Series due now.", site, nil),
		behind:  prometheus.NewDesc("mangabookmark_lane_behind_by_seconds", "How long past Rest the oldest due Series has waited.", site, nil),
		failing: prometheus.NewDesc("mangabookmark_lane_failing", "Series holding a failure row.", site, nil),
		last:    prometheus.NewDesc("mangabookmark_lane_last_pass_timestamp_seconds", "When the Lane's last pass finished (0: never).", site, nil),
		state:   prometheus.NewDesc("mangabookmark_lane_state", "The Lane's state (1 for the current one).", []string{"site", "state"}, nil),
		overflow: prometheus.NewDesc("mangabookmark_listing_overflow_total",
			"Listing reads whose pages reached nothing the last look saw (Rest covered the rest); Sites with a listing only.", site, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *laneCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.up, c.series, c.due, c.behind, c.failing, c.last, c.state, c.overflow} {
		ch <- d
	}
}

// Collect implements prometheus.Collector; without a store (so no admin
// read model) it reports nothing.
func (c *laneCollector) Collect(ch chan<- prometheus.Metric) {
	if c.s.Admin == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	lanes, err := c.s.Admin.LaneViews(ctx)
	if err != nil {
		c.s.Log.Warn("lane read for /metrics failed", "error", err)
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 1)
	gauge := func(d *prometheus.Desc, v float64, site string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, site)
	}
	for _, l := range lanes {
		gauge(c.series, float64(l.Series), l.Site)
		gauge(c.due, float64(l.Due), l.Site)
		gauge(c.behind, float64(l.BehindByS), l.Site)
		gauge(c.failing, float64(l.Failing), l.Site)
		last := 0.0
		if l.LastPass != nil {
			last = float64(l.LastPass.FinishedAt.Unix())
		}
		gauge(c.last, last, l.Site)
		if l.Listing != nil {
			ch <- prometheus.MustNewConstMetric(c.overflow, prometheus.CounterValue, float64(l.Listing.Overflows), l.Site)
		}
		for _, st := range client.States { // every state gets a series, even at zero
			v := 0.0
			if l.State == st {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(c.state, prometheus.GaugeValue, v, l.Site, st)
		}
	}
}
