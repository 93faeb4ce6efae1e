package api

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// syncMetrics is the phone sync family of /metrics.
type syncMetrics struct {
	once     sync.Once
	requests *prometheus.CounterVec
}

// Results of a sync request, the result label of
// mangabookmark_phone_sync_requests_total.
const (
	SyncOK           = "ok"
	SyncNotModified  = "not_modified"
	SyncNotFound     = "not_found"
	SyncConflict     = "conflict"
	SyncTooLarge     = "too_large"
	SyncBusy         = "busy"
	SyncPaced        = "paced"
	SyncUnauthorized = "unauthorized"
	SyncBadRequest   = "bad_request"
	SyncError        = "error"
)

// ObserveSync counts one sync request by route (its ServeMux pattern) and
// result: mangabookmark_phone_sync_requests_total{route,result}. The
// family is registered on first call.
func (m *Metrics) ObserveSync(route, result string) {
	m.sync.once.Do(func() {
		m.sync.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mangabookmark_phone_sync_requests_total",
			Help: "Phone sync requests by route and result (ok, not_modified, not_found, conflict, too_large, busy, paced, unauthorized, bad_request, error).",
		}, []string{"route", "result"})
		m.reg.MustRegister(m.sync.requests)
	})
	m.sync.requests.WithLabelValues(route, result).Inc()
}
