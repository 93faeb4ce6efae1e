package api

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"mangabookmark/backend/readernotice"
)

// noticeMetrics are the Reader notice families of /metrics.
type noticeMetrics struct {
	once    sync.Once
	notices *prometheus.CounterVec
	delay   prometheus.Histogram
}

// NoticeRecorder returns the readernotice.Recorder that feeds /metrics:
// mangabookmark_reader_notices_total{outlet,result} and mangabookmark_notice_delay_seconds (a
// Chapter Event seen to its Digest sent). The families are registered on
// first call.
func (m *Metrics) NoticeRecorder() readernotice.Recorder {
	m.notice.once.Do(func() {
		m.notice.notices = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mangabookmark_reader_notices_total",
			Help: "Reader notices by outlet and result: owed (a delivery made), sent, failed (one attempt), dropped (after 24 h), gone (push subscription ended); caught_up and off are notices settled unsent (outlet \"\").",
		}, []string{"outlet", "result"})
		m.notice.delay = prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mangabookmark_notice_delay_seconds",
			Help:    "From a Digest's first Chapter Event seen to the Digest sent, per delivery.",
			Buckets: []float64{0.5, 1, 2, 5, 10, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600},
		})
		for _, o := range []string{"discord", "ntfy", "push", "webhook"} {
			for _, r := range []string{"owed", "sent", "failed", "dropped"} {
				m.notice.notices.WithLabelValues(o, r) // every outlet shows, even at zero
			}
		}
		m.reg.MustRegister(m.notice.notices, m.notice.delay)
	})
	return noticeRecorder{m}
}

type noticeRecorder struct{ m *Metrics }

func (r noticeRecorder) Notice(outlet, result string) {
	r.m.notice.notices.WithLabelValues(outlet, result).Inc()
}

func (r noticeRecorder) Delay(d time.Duration) { r.m.notice.delay.Observe(d.Seconds()) }
