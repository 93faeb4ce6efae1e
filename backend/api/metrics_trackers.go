package api

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"mangabookmark/backend/trackers"
)

// trackerMetrics is the tracker family of /metrics.
type trackerMetrics struct {
	once     sync.Once
	requests *prometheus.CounterVec
}

// TrackerRecorder returns the trackers.Recorder that feeds /metrics:
// mangabookmark_tracker_requests_total{service,kind,result}. The family is
// registered on first call.
func (m *Metrics) TrackerRecorder() trackers.Recorder {
	m.tracker.once.Do(func() {
		m.tracker.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mangabookmark_tracker_requests_total",
			Help: "Requests to trackers (AniList, MangaBaka) by service, kind (list, progress, save, viewer, token) and result (ok, no_such_user, token_refused, rate_limited, ...).",
		}, []string{"service", "kind", "result"})
		for _, svc := range []string{"anilist", "mangabaka"} {
			for _, k := range []string{trackers.KindList, trackers.KindProgress, trackers.KindSave, trackers.KindViewer} {
				m.tracker.requests.WithLabelValues(svc, k, trackers.ResultOK) // shows at zero
			}
		}
		m.reg.MustRegister(m.tracker.requests)
	})
	return trackerRecorder{m}
}

type trackerRecorder struct{ m *Metrics }

func (r trackerRecorder) Request(service, kind, result string) {
	r.m.tracker.requests.WithLabelValues(service, kind, result).Inc()
}
