package releasefeed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// DefaultEvery is how often the list is read.
const DefaultEvery = 10 * time.Minute

// MaxBackoff is the longest a run of failed reads puts the next read off.
const MaxBackoff = 2 * time.Hour

// Clock is the feed's source of time (the Lanes' clock fits: tests drive
// both with one lanestest.FakeClock).
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Config wires a Feed. Store, Sites and Client are required.
type Config struct {
	Store  *store.Store
	Sites  *sites.Registry
	Client *Client
	Clock  Clock        // nil: the wall clock
	Log    *slog.Logger // nil: discard
	// Every is the pace of reads (default DefaultEvery).
	Every time.Duration
	// MaxPages bounds the pages of one read (default DefaultMaxPages).
	MaxPages int
}

// Feed reads the release list and hints. Create with New, then Start and
// Stop; tests call RunOnce.
type Feed struct {
	cfg  Config
	loop startstop.Loop
}

// New checks cfg and builds a Feed; nothing runs until Start.
func New(cfg Config) (*Feed, error) {
	switch {
	case cfg.Store == nil || cfg.Sites == nil || cfg.Client == nil:
		return nil, errors.New("releasefeed: Store, Sites and Client are required")
	case cfg.Every < 0 || cfg.MaxPages < 0:
		return nil, errors.New("releasefeed: Every and MaxPages must not be negative")
	}
	if cfg.Clock == nil {
		cfg.Clock = trackers.WallClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Every == 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.MaxPages == 0 {
		cfg.MaxPages = DefaultMaxPages
	}
	return &Feed{cfg: cfg}, nil
}

// Start reads at once (unless another process read within Every) and then
// every Every, until Stop or ctx ends.
func (f *Feed) Start(ctx context.Context) { f.loop.Start(ctx, f.run) }

// Stop ends the loop and waits for a read in flight.
func (f *Feed) Stop() { f.loop.Stop() }

func (f *Feed) run(ctx context.Context) {
	for ctx.Err() == nil {
		res, err := f.RunOnce(ctx)
		wait := f.cfg.Every
		switch {
		case err != nil && ctx.Err() == nil:
			f.cfg.Log.Error("store error; the release feed tries again later", "error", err)
		case err == nil:
			wait = res.Wait
		}
		if f.cfg.Clock.Sleep(ctx, max(wait, time.Second)) != nil {
			return
		}
	}
}

// Result is what RunOnce did.
type Result struct {
	Ran      bool           // this call read the list (it was due and the claim was won)
	Outcome  string         // the read's outcome word
	Pages    int            // pages fetched
	Releases int            // releases taken in
	Skipped  int            // rows skipped as unusable
	Overflow bool           // the page bound came before the last read's releases
	Hinted   map[string]int // Series made due, by Site
	Wait     time.Duration  // until the next read is due
}

// RunOnce reads the list when it is due (next_at past) and this process
// wins the claim, hints the followed Series its new releases name and
// saves the state. A failed read keeps its hints from the pages before the
// failure, counts a failure in a row and puts the next read off (Every
// doubled per failure, at most MaxBackoff, longer when the answer asked
// for it). Only a store error is an error.
func (f *Feed) RunOnce(ctx context.Context) (Result, error) {
	now := f.cfg.Clock.Now()
	cur, err := f.cfg.Store.GetReleaseFeed(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("releasefeed: %w", err)
	}
	if cur.NextAt != nil && cur.NextAt.After(now) {
		return Result{Wait: cur.NextAt.Sub(now)}, nil
	}
	prev, won, err := f.cfg.Store.ClaimReleaseFeed(ctx, now, f.cfg.Every)
	if err != nil {
		return Result{}, fmt.Errorf("releasefeed: %w", err)
	}
	if !won {
		return Result{Wait: f.cfg.Every}, nil
	}
	seenBefore := make(map[int64]bool, len(prev.Seen))
	for _, id := range prev.Seen {
		seenBefore[id] = true
	}
	since := now.UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	r := readList(ctx, f.cfg.Client.Page, seenBefore, since, f.cfg.MaxPages)
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	hints, seen := decide(prev.Seen, r.Releases)
	hinted, err := f.hint(ctx, hints, now, r.Outcome == OutcomeOK || len(hints) > 0)
	if err != nil {
		return Result{}, err
	}
	next := prev
	at := f.cfg.Clock.Now()
	next.LastReadAt, next.LastOutcome, next.Seen = &at, r.Outcome, seen
	wait := f.cfg.Every
	if r.Outcome == OutcomeOK {
		next.Failures, next.LastReason, next.Releases = 0, "", len(r.Releases)
	} else {
		next.Failures++
		next.LastReason = r.Err.Error()
		wait = backoff(f.cfg.Every, next.Failures, r.RetryAfter)
	}
	nextAt := at.Add(wait)
	next.NextAt = &nextAt
	if err := f.cfg.Store.SaveReleaseFeed(ctx, next); err != nil {
		return Result{}, fmt.Errorf("releasefeed: %w", err)
	}
	f.say(r, next, hinted)
	return Result{Ran: true, Outcome: r.Outcome, Pages: r.Pages, Releases: len(r.Releases), Skipped: r.Skipped,
		Overflow: r.Overflow, Hinted: hinted, Wait: wait}, nil
}

// backoff is the wait after the failures-th failed read in a row: Every,
// doubled per failure past the first, at most MaxBackoff, and at least
// what the answer asked for (itself at most MaxBackoff).
func backoff(every time.Duration, failures int, asked time.Duration) time.Duration {
	wait := every
	for i := 1; i < failures && wait < MaxBackoff; i++ {
		wait *= 2
	}
	return min(max(wait, asked), MaxBackoff)
}

// say logs the read: a failure at debug, the third in a row as a warning,
// skipped rows and overflow at info.
func (f *Feed) say(r readResult, st store.ReleaseFeedState, hinted map[string]int) {
	log := f.cfg.Log
	n := 0
	for _, c := range hinted {
		n += c
	}
	switch {
	case r.Outcome != OutcomeOK && st.Failures == 3:
		log.Warn("release feed failed three times in a row; Rest and the listings carry on alone", "outcome", r.Outcome, "error", r.Err)
	case r.Outcome != OutcomeOK:
		log.Debug("release feed read failed", "outcome", r.Outcome, "error", r.Err, "next_at", st.NextAt)
	case r.Overflow:
		log.Info("release feed overflow: the page bound came before the last read's releases", "pages", r.Pages)
	}
	if r.Skipped > 0 {
		log.Info("release feed rows skipped as unusable", "skipped", r.Skipped)
	}
	log.Debug("release feed read", "pages", r.Pages, "releases", len(r.Releases), "hinted", n)
}
