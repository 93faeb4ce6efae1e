package readernotice

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A test notice makes the server POST to every outlet target the Reader
// has on (up to 22: webhook, ntfy, Discord, 20 browsers), to hosts the
// Reader picks (issue 33 A1). So a Reader gets one test a TestEvery, on
// the API and the pages alike (both call SendTest), and the Owner's shared
// Discord channel takes one test a DiscordTestEvery from the whole server,
// so tests never crowd out the Digests there.
const (
	TestEvery        = time.Minute
	DiscordTestEvery = 10 * time.Second
)

// TestTooSoonError refuses a test notice sent less than TestEvery after
// the Reader's last one; nothing was sent.
type TestTooSoonError struct {
	Wait time.Duration // until the next test is taken
}

func (e *TestTooSoonError) Error() string {
	return fmt.Sprintf("readernotice: test notice: the next one is taken in %s", e.Wait)
}

// Reason is the sentence a Reader reads.
func (e *TestTooSoonError) Reason() string {
	return fmt.Sprintf("you sent a test notice less than a minute ago; send the next one in %d seconds", e.Seconds())
}

// Seconds is Wait in whole seconds, rounded up (for Retry-After).
func (e *TestTooSoonError) Seconds() int {
	return int((e.Wait + time.Second - 1) / time.Second)
}

// testGate holds when each Reader last sent a test notice and when the
// shared Discord channel last took one; its zero value is ready.
type testGate struct {
	mu        sync.Mutex
	last      map[int64]time.Time
	discordAt time.Time
}

// take records a test for readerID at now, or says how long until one is
// taken. Entries older than TestEvery are dropped as the map grows, so it
// holds only the Readers who tested in the last minute.
func (g *testGate) take(readerID int64, now time.Time) (wait time.Duration, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if at, seen := g.last[readerID]; seen && now.Sub(at) < TestEvery {
		return TestEvery - now.Sub(at), false
	}
	if g.last == nil {
		g.last = map[int64]time.Time{}
	}
	if len(g.last) >= 1024 {
		for id, at := range g.last {
			if now.Sub(at) >= TestEvery {
				delete(g.last, id)
			}
		}
	}
	g.last[readerID] = now
	return 0, true
}

// discord reports whether the shared Discord channel takes a test at now,
// and records it when it does.
func (g *testGate) discord(now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.discordAt.IsZero() && now.Sub(g.discordAt) < DiscordTestEvery {
		return false
	}
	g.discordAt = now
	return true
}

// TestResult is one outlet's answer to a test notice.
type TestResult struct {
	Outlet string
	OK     bool
	Error  string
}

// SendTest sends one test notice to every outlet the Reader has on, now,
// and says how each went. It writes no delivery and no health row. A
// second test within TestEvery is a *TestTooSoonError and sends nothing;
// the shared Discord channel is skipped, with the reason, while it took
// another test within DiscordTestEvery.
func (s *Service) SendTest(ctx context.Context, readerID int64) ([]TestResult, error) {
	r, err := s.reader(ctx, readerID)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	if wait, ok := s.tests.take(readerID, now); !ok {
		return nil, &TestTooSoonError{Wait: wait}
	}
	d := Digest{Reader: Recipient{DiscordID: r.DiscordID, Name: r.Name}, Test: true, Chapters: []Chapter{}, Late: []Late{}}
	out := []TestResult{}
	for _, o := range s.order {
		for _, target := range o.Targets(r) {
			if o.Name() == "discord" && !s.tests.discord(now) {
				out = append(out, TestResult{Outlet: o.Name(), Error: "the shared Discord channel took another test seconds ago; try again in a minute"})
				continue
			}
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
