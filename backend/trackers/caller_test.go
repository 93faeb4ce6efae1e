package trackers

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes/lanestest"
)

// countingRecorder keeps every Request it is told of.
type countingRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *countingRecorder) Request(service, kind, result string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, service+"/"+kind+"/"+result)
}

func (r *countingRecorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func mustCaller(t *testing.T, clock Clock, rec Recorder) Caller {
	t.Helper()
	c, err := NewCaller(CallerConfig{Tracker: "anilist", Limiter: mustLimiter(t, LimiterConfig{PerMinute: 10, Clock: clock}),
		Recorder: rec, DefaultMaxBody: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCallerAsksAgainAfter429: each 429 holds the limiter for its wait and
// is asked again, at most MaxRetries times, every attempt counted.
func TestCallerAsksAgainAfter429(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	rec := &countingRecorder{}
	c := mustCaller(t, clock, rec)
	attempts := 0
	done := make(chan error, 1)
	go func() {
		done <- c.Do(t.Context(), KindSave, func() (string, error) {
			attempts++
			err := c.HoldFor429(KindSave, 30*time.Second)
			return ResultOf(err), err
		})
	}()
	for range MaxRetries {
		mustSleep(t, clock, done)
		clock.Advance(30 * time.Second)
	}
	err := <-done
	var rl *RateLimited
	if !errors.As(err, &rl) || !errors.Is(err, ErrRateLimited) || rl.Wait != 30*time.Second {
		t.Fatalf("err %v, want a RateLimited of 30s", err)
	}
	if attempts != 1+MaxRetries {
		t.Fatalf("%d attempts, want %d", attempts, 1+MaxRetries)
	}
	if got := rec.all(); len(got) != 1+MaxRetries || got[0] != "anilist/save/rate_limited" {
		t.Fatalf("recorded %v", got)
	}
}

// TestCallerStopsOnOtherErrors: any other outcome ends the loop at once,
// counted under the attempt's own word.
func TestCallerStopsOnOtherErrors(t *testing.T) {
	t.Parallel()
	rec := &countingRecorder{}
	c := mustCaller(t, lanestest.NewFakeClock(t0), rec)
	err := c.Do(t.Context(), KindProgress, func() (string, error) { return ResultNoSuchMedia, nil })
	if err != nil {
		t.Fatal(err)
	}
	err = c.Do(t.Context(), KindList, func() (string, error) { return ResultOf(ErrTokenRefused), ErrTokenRefused })
	if !errors.Is(err, ErrTokenRefused) {
		t.Fatalf("err %v", err)
	}
	if got := rec.all(); len(got) != 2 || got[0] != "anilist/progress/no_such_media" || got[1] != "anilist/list/token_refused" {
		t.Fatalf("recorded %v", got)
	}
}

// TestCallerCanceledWhileWaiting: a context ended while the limiter holds
// counts a canceled request and makes no attempt.
func TestCallerCanceledWhileWaiting(t *testing.T) {
	t.Parallel()
	rec := &countingRecorder{}
	c := mustCaller(t, lanestest.NewFakeClock(t0), rec)
	c.Limit.Hold(t0.Add(time.Hour))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := c.Do(ctx, KindSave, func() (string, error) { t.Fatal("attempted"); return "", nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if got := rec.all(); len(got) != 1 || got[0] != "anilist/save/canceled" {
		t.Fatalf("recorded %v", got)
	}
}

// TestHoldFor429Bounded: an answer asking for a day holds the limiter for
// MaxHold only.
func TestHoldFor429Bounded(t *testing.T) {
	t.Parallel()
	clock := lanestest.NewFakeClock(t0)
	c := mustCaller(t, clock, nil)
	var rl *RateLimited
	if err := c.HoldFor429(KindSave, 24*time.Hour); !errors.As(err, &rl) || rl.Wait != MaxHold {
		t.Fatalf("err %v", err)
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]time.Duration{"": -1, "12": 12 * time.Second, " 0 ": 0, "-3": -1,
		"Wed, 21 Oct 2015 07:28:00 GMT": -1, "1e9": -1,
		// Hostile: seconds that would overflow a Duration are MaxHold.
		"18446744074": MaxHold, "9223372036": MaxHold, "601": MaxHold} {
		h := http.Header{}
		if v != "" {
			h.Set("Retry-After", v)
		}
		got, ok := RetryAfterSeconds(h)
		if (want < 0 && ok) || (want >= 0 && (!ok || got != want)) {
			t.Errorf("Retry-After %q: %v %v, want %v", v, got, ok, want)
		}
	}
}

func TestNewCallerValidates(t *testing.T) {
	t.Parallel()
	for _, mb := range []int64{-1, maxBodyCeiling + 1} {
		if _, err := NewCaller(CallerConfig{Tracker: "x", MaxBody: mb}); err == nil {
			t.Errorf("MaxBody %d accepted", mb)
		}
	}
	if _, err := NewCaller(CallerConfig{Tracker: "x", PerMinute: 1000}); err == nil {
		t.Error("PerMinute 1000 accepted")
	}
	c, err := NewCaller(CallerConfig{Tracker: "x", DefaultMaxBody: 77})
	if err != nil || c.MaxBody != 77 || c.HTTP == nil || c.Log == nil || c.Rec == nil || c.Limit == nil {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	for _, o := range []string{"ftp://h", "http://h/x", "http://u@h", "http://h?q", "http://", ""} {
		if _, err := CleanOrigin(o, "http://127.0.0.1:1"); err == nil {
			t.Errorf("origin %q accepted", o)
		}
	}
	if o, err := CleanOrigin("HTTP://Example.Test:80/", "x"); err != nil || o != "http://example.test:80" {
		t.Errorf("clean origin: %q %v", o, err)
	}
}
