package digest

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"mangabookmark/backend/store"
)

// Metrics are the notice service's Prometheus collectors.
type Metrics struct {
	notices *prometheus.CounterVec
	delay   prometheus.Histogram
}

// NewMetrics makes the collectors; Collectors lists them for a registry.
func NewMetrics() *Metrics {
	return &Metrics{
		notices: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mb_reader_notices_total",
			Help: "Reader notices by outlet and result: owed (made owed into a Digest), sent, failed (an attempt), dropped (after 24 h), gone (push subscription ended), caught_up and off (settled unsent).",
		}, []string{"outlet", "result"}),
		delay: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mb_notice_delay_seconds",
			Help:    "From a Digest's first Chapter Event seen to the Digest sent, per delivery.",
			Buckets: []float64{0.5, 1, 2, 5, 10, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600},
		}),
	}
}

// Collectors returns every collector, to register on /metrics.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.notices, m.delay}
}

func (m *Metrics) result(outlet, result string) { m.notices.WithLabelValues(outlet, result).Inc() }

func (m *Metrics) sent(outlet string, delay time.Duration) {
	m.result(outlet, "sent")
	m.delay.Observe(delay.Seconds())
}

// owed counts a plan's settled notices and deliveries made.
func (m *Metrics) owed(p store.DigestPlan) {
	for _, o := range p.Outcomes {
		if o != store.NoticeSent {
			m.result("", o)
		}
	}
	for _, d := range p.Deliveries {
		m.result(d.Outlet, "owed")
	}
}
