package crosswalk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// CacheFor is how long an answer stands: MangaBaka's own cache TTL on the
// source routes ("cache ttl: 7 days", x-cache-ttl 7_DAY) and its refresh
// of one series at least every 7 days (docs/sources.md (ids) §2).
const CacheFor = 7 * 24 * time.Hour

// batch is how many queued ids one pass takes.
const batch = 50

// DefaultPollEvery is how often an idle Worker looks at the queue without
// a wake: ids whose retry time came, and any wake that was missed.
const DefaultPollEvery = 5 * time.Minute

// maxBackoff bounds the wait before asking again about an id whose lookup
// found no answer.
const maxBackoff = 6 * time.Hour

// Config configures a Worker.
type Config struct {
	Store  *store.Store
	Client *Client
	Clock  Clock        // nil: the wall clock
	Log    *slog.Logger // nil: discard
	// PerMinute is the most lookups started in a minute (0: PerMinute;
	// more than PerMinute is refused).
	PerMinute int
	// PollEvery is an idle Worker's look at the queue (0: DefaultPollEvery).
	PollEvery time.Duration
	// OnPass, when set, is called after every pass (tests wait on it).
	OnPass func(Stats)
}

// Stats is what one pass did.
type Stats struct {
	Taken    int // queued ids taken
	Requests int // lookups sent to MangaBaka
	Cached   int // ids answered from the cache
	Filled   int // ids stored for Series
	Hostile  int // answers refused whole
	Retried  int // ids given back for later (429, 5xx, no answer)
	Statuses int // Series whose MangaBaka status an answer changed
	Queued   int // ids queued again to refresh a Series' MangaBaka status
}

// Worker takes the queued ids and fills the others. It is safe for
// concurrent use; Start and Stop bound its goroutines.
type Worker struct {
	cfg   Config
	pace  *trackers.Limiter
	loop  startstop.Loop
	wake  chan struct{}
	sent  atomic.Int64
	clock Clock
	log   *slog.Logger
}

// New builds a Worker, or an error naming the field that cannot work.
func New(cfg Config) (*Worker, error) {
	switch {
	case cfg.Store == nil || cfg.Client == nil:
		return nil, errors.New("crosswalk: new: Config.Store and Config.Client are required")
	case cfg.PerMinute < 0 || cfg.PerMinute > PerMinute:
		return nil, fmt.Errorf("crosswalk: new: Config.PerMinute %d is outside 0..%d", cfg.PerMinute, PerMinute)
	}
	if cfg.PerMinute == 0 {
		cfg.PerMinute = PerMinute
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = DefaultPollEvery
	}
	w := &Worker{cfg: cfg, wake: make(chan struct{}, 1), clock: cfg.Clock, log: cfg.Log}
	if w.clock == nil {
		w.clock = trackers.WallClock{}
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	pace, err := trackers.NewLimiter(trackers.LimiterConfig{PerMinute: cfg.PerMinute, Max: PerMinute, Clock: w.clock})
	if err != nil {
		return nil, fmt.Errorf("crosswalk: new: %w", err)
	}
	w.pace = pace
	return w, nil
}

// Requests is how many lookups this Worker has sent.
func (w *Worker) Requests() int64 { return w.sent.Load() }

// Wake asks for a pass soon (ids were queued).
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Start runs the Worker until Stop: a pass at once, then one at each wake
// (any process's queued ids, store.ListenCrosswalk) or PollEvery.
func (w *Worker) Start(ctx context.Context) {
	w.loop.Start(ctx, w.run)
}

// Stop ends the Worker and waits for it.
func (w *Worker) Stop() { w.loop.Stop() }

func (w *Worker) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.listen(ctx)
	}()
	defer wg.Wait()
	for ctx.Err() == nil {
		st, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.log.Warn("crosswalk pass failed", "error", err)
		}
		if w.cfg.OnPass != nil {
			w.cfg.OnPass(st)
		}
		if err == nil && st.Taken == batch && st.Retried == 0 {
			continue // more are waiting
		}
		w.idle(ctx)
	}
}

// idle waits for a wake or PollEvery, whichever comes first.
func (w *Worker) idle(ctx context.Context) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-w.wake:
			cancel()
		case <-sctx.Done():
		}
	}()
	_ = w.clock.Sleep(sctx, w.cfg.PollEvery)
	cancel()
	<-done
}

// listen wakes the Worker at every commit that queued ids, in any process.
// A lost connection is tried again after a minute; the poll covers the gap.
func (w *Worker) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := w.cfg.Store.ListenCrosswalk(ctx, w.Wake, w.Wake)
		if err == nil || ctx.Err() != nil {
			return
		}
		w.log.Warn("crosswalk wake listener lost; polling meanwhile", "error", err)
		if w.clock.Sleep(ctx, time.Minute) != nil {
			return
		}
	}
}

// RunOnce queues again an id of each Series whose MangaBaka status is
// older than CacheFor (store.QueueCrosswalkRefresh: up to one batch), then
// takes up to one batch of queued ids and answers each: from the cache
// when an answer is younger than CacheFor, else by one lookup.
func (w *Worker) RunOnce(ctx context.Context) (Stats, error) {
	var st Stats
	n, err := w.cfg.Store.QueueCrosswalkRefresh(ctx, w.clock.Now().Add(-CacheFor), batch)
	if err != nil {
		return st, err
	}
	st.Queued = n
	items, err := w.cfg.Store.ClaimCrosswalk(ctx, w.clock.Now(), batch)
	if err != nil {
		return st, err
	}
	st.Taken = len(items)
	for i, it := range items {
		stop, err := w.one(ctx, it, &st)
		if err != nil {
			return st, err
		}
		if stop > 0 { // MangaBaka asked us to wait: the rest go back for as long (a minute at least), in one statement
			rest := make([]int64, 0, len(items)-i-1)
			for _, r := range items[i+1:] {
				rest = append(rest, r.ID)
			}
			return st, w.cfg.Store.RetryCrosswalk(ctx, w.clock.Now().Add(max(stop, time.Minute)), false, rest...)
		}
	}
	return st, nil
}

// one answers one queued id; stop is how long MangaBaka asked us to wait
// (a 429), zero otherwise.
func (w *Worker) one(ctx context.Context, it store.CrosswalkItem, st *Stats) (stop time.Duration, err error) {
	now := w.clock.Now()
	ans, cached, err := w.cfg.Store.CachedCrosswalk(ctx, it.Kind, it.Value, now.Add(-CacheFor))
	if err != nil {
		return 0, err
	}
	keys := []store.ExternalID{{Kind: it.Kind, Value: it.Value}}
	if cached {
		st.Cached++
	} else {
		if _, ok := Path(it.Kind, it.Value); !ok {
			return 0, w.cfg.Store.DropCrosswalk(ctx, it.ID) // a value of no form MangaBaka reads
		}
		if err := w.pace.Wait(ctx); err != nil {
			return 0, err
		}
		w.sent.Add(1)
		st.Requests++
		a, err := w.cfg.Client.Lookup(ctx, it.Kind, it.Value)
		var te *TransientError
		switch {
		case errors.As(err, &te):
			st.Retried++
			wait := te.RetryAfter
			if wait == 0 {
				wait = min(time.Minute<<min(it.Tries, 10), maxBackoff)
			}
			w.log.Info("crosswalk lookup to ask again", "kind", it.Kind, "status", te.Status, "wait", wait)
			if te.Status == http.StatusTooManyRequests {
				stop = wait
			}
			return stop, w.cfg.Store.RetryCrosswalk(ctx, now.Add(wait), true, it.ID)
		case errors.Is(err, ErrHostile):
			st.Hostile++
			w.log.Warn("crosswalk answer refused", "kind", it.Kind, "value", it.Value, "error", err)
			a = Answer{Status: 0}
		case err != nil:
			w.log.Warn("crosswalk lookup refused", "kind", it.Kind, "value", it.Value, "error", err)
			a = Answer{Status: -1}
		}
		ans = store.CrosswalkAnswer{Status: a.Status, IDs: a.IDs, FetchedAt: now, StoryStatus: a.StoryStatus, FinalChapter: a.FinalChapter}
		if keys, err = w.cfg.Store.SaveCrosswalk(ctx, it.Kind, it.Value, ans); err != nil {
			return 0, err
		}
	}
	res, err := w.cfg.Store.ApplyCrosswalk(ctx, it, ans.IDs)
	if err != nil {
		return 0, err
	}
	st.Filled += res.Added
	return 0, w.recordStatus(ctx, ans, keys, now, st)
}

// recordStatus gives what an answer says of the story's status (and final
// chapter) to every Series carrying one of keys as a shared id
// (store.RecordMangaBakaStatus), after the ids are stored so the Series
// is in its Work: the id asked about, and for a fresh answer every id it
// cached, so a refreshed answer reaches each Series an earlier one did.
// A cached answer gives it as a fresh one does. An answer naming no story
// (a 404, none or several active series, refused) leaves each Series'
// MangaBaka status as it was: MangaBaka saying nothing is no change of
// the story. An id that is a Reader's own word gives them ids, and
// nobody a status through it (ADR 0021, whose word).
func (w *Worker) recordStatus(ctx context.Context, a store.CrosswalkAnswer, keys []store.ExternalID, now time.Time, st *Stats) error {
	if a.Status != http.StatusOK || a.StoryStatus == "" {
		return nil
	}
	n, err := w.cfg.Store.RecordMangaBakaStatus(ctx, keys, a.StoryStatus, a.FinalChapter, a.FetchedAt, now)
	st.Statuses += n
	return err
}
