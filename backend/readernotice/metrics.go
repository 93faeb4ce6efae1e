package readernotice

import (
	"time"

	"mangabookmark/backend/store"
)

// Recorder receives the notice service's measures; backend/api's /metrics
// implements it (only it may import Prometheus).
type Recorder interface {
	// Notice counts one notice or delivery of an outlet ("" for notices
	// settled unsent) by result: owed (a delivery made), sent, failed,
	// dropped, gone, refused (the outlet stopped), caught_up, off.
	Notice(outlet, result string)
	// Delay observes one delivery's time from its first Chapter Event seen
	// to sent.
	Delay(d time.Duration)
}

type nopRecorder struct{}

func (nopRecorder) Notice(string, string) {}
func (nopRecorder) Delay(time.Duration)   {}

// recorder wraps the configured Recorder with the service's counting.
type recorder struct{ Recorder }

func (m recorder) result(outlet, result string) { m.Notice(outlet, result) }

func (m recorder) sent(outlet string, delay time.Duration) {
	m.Notice(outlet, "sent")
	m.Delay(delay)
}

// owed counts a plan's settled notices and deliveries made.
func (m recorder) owed(p store.DigestPlan) {
	for _, o := range p.Outcomes {
		if o != store.NoticeSent {
			m.Notice("", o)
		}
	}
	for _, d := range p.Deliveries {
		m.Notice(d.Outlet, "owed")
	}
}
