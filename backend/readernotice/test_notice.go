package readernotice

import (
	"context"
	"time"
)

// TestResult is one outlet's answer to a test notice.
type TestResult struct {
	Outlet string
	OK     bool
	Error  string
}

// SendTest sends one test notice to every outlet the Reader has on, now,
// and says how each went. It writes no delivery and no health row.
func (s *Service) SendTest(ctx context.Context, readerID int64) ([]TestResult, error) {
	r, err := s.reader(ctx, readerID)
	if err != nil {
		return nil, err
	}
	d := Digest{Reader: Recipient{DiscordID: r.DiscordID, Name: r.Name}, Test: true, Chapters: []Chapter{}, Late: []Late{}}
	out := []TestResult{}
	for _, o := range s.order {
		for _, target := range o.Targets(r) {
			cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			err := o.Send(cctx, r, target, d)
			cancel()
			res := TestResult{Outlet: o.Name(), OK: err == nil}
			if err != nil {
				res.Error = err.Error()
			}
			out = append(out, res)
		}
	}
	return out, nil
}
