package imports

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/startstop"
	"mangabookmark/backend/store"
)

// Config is the import service's collaborators and settings.
type Config struct {
	Store *store.Store
	Sites *sites.Registry
	// MangaDexList reads the Series URLs of a public MangaDex list by its
	// id; nil refuses mangadex_list imports as unsupported here.
	MangaDexList func(ctx context.Context, listID string) ([]string, error)
	Log          *slog.Logger     // nil discards
	Now          func() time.Time // nil: time.Now
	// Every is how often the background loop looks for imports to resume
	// (default 30s).
	Every time.Duration
	// Lease is how long one process holds an import it applies before
	// another may take it (default 10 minutes).
	Lease time.Duration
}

// Service runs imports: it applies a new import at once (Submit) and, in the
// background (Start/Stop), resumes the imports the Reader's allowance of
// new Series holds, as it refills.
type Service struct {
	cfg     Config
	resumer startstop.Loop // the background loop (Start/Stop)
	uploads uploads        // the Readers with an upload being read (uploads.go)
}

// New builds the Service, or says which field of cfg is wrong.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.Store == nil:
		return nil, errors.New("imports: new: Store is required")
	case cfg.Sites == nil:
		return nil, errors.New("imports: new: Sites is required")
	case cfg.Every < 0, cfg.Lease < 0:
		return nil, errors.New("imports: new: Every and Lease must not be negative")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Every == 0 {
		cfg.Every = 30 * time.Second
	}
	if cfg.Lease == 0 {
		cfg.Lease = 10 * time.Minute
	}
	return &Service{cfg: cfg}, nil
}

// Submit records an import of a decoded file for a Reader and applies it:
// the job row is written first (whole, in one statement), then every
// entry goes through the Reader limits. A MangaDex list is only recorded;
// the background loop reads it from MangaDex. It returns the job as it
// stands (running, waiting or done).
func (s *Service) Submit(ctx context.Context, readerID int64, p *Parsed) (store.ImportJob, error) {
	pl := MakePlan(p, s.cfg.Sites)
	now := s.cfg.Now()
	stampReads(pl.Entries, now)
	j := store.ImportJob{ReaderID: readerID, Kind: pl.Kind, State: store.ImportRunning, Source: pl.Source,
		Total: pl.Total, Already: pl.Duplicates, Entries: pl.Entries, Unsupported: pl.Unsupported, UnsupportedCount: len(pl.Unsupported), CreatedAt: now}
	// Held by this process while it applies; taken back by the loop after
	// the lease if this process stops first.
	due := now.Add(s.cfg.Lease)
	if pl.Kind == KindMangaDexList {
		due = now
	}
	j.DueAt = &due
	if err := s.cfg.Store.CreateImport(ctx, &j); errors.Is(err, store.ErrTooManyImports) {
		return store.ImportJob{}, errorf(ErrTooMany, "you have %d imports still running or waiting for your allowance of new Series, the most one Reader may; wait for one to finish, then import again", store.MaxImportsKept)
	} else if err != nil {
		return store.ImportJob{}, fmt.Errorf("imports: submit: %w", err)
	}
	if pl.Kind == KindMangaDexList {
		return j, nil
	}
	if err := s.apply(ctx, &j); err != nil {
		return j, err
	}
	return j, nil
}

// stampReads gives Progress without a read time the import's time.
func stampReads(entries []store.ImportEntry, now time.Time) {
	for i := range entries {
		if entries[i].Number != "" && entries[i].ReadAt == nil {
			t := now.UTC()
			entries[i].ReadAt = &t
		}
	}
}

// apply admits a job's pending entries, updates its counts and state, and
// saves it.
func (s *Service) apply(ctx context.Context, j *store.ImportJob) error {
	var idx []int
	var pending []store.ImportEntry
	for i, e := range j.Entries {
		if e.State == store.EntryPending {
			idx, pending = append(idx, i), append(pending, e)
		}
	}
	res, err := s.cfg.Store.ImportBookmarks(ctx, j.ReaderID, pending)
	if err != nil {
		return fmt.Errorf("imports: apply %d: %w", j.ID, err)
	}
	if err := s.storeIDs(ctx, j, pending, res); err != nil {
		return fmt.Errorf("imports: apply %d: %w", j.ID, err)
	}
	limits := s.cfg.Store.ReaderLimits()
	kept := j.Entries[:0:0]
	waiting := 0
	done := map[int]bool{}
	for k, r := range res {
		e := &j.Entries[idx[k]]
		switch {
		case errors.Is(r.Refused, store.ErrNewSeriesLimit), errors.Is(r.Refused, store.ErrNeverReadLimit):
			// Waits: the hour refills the allowance, and the Lanes' first
			// reads of real Series free the never-read cap (ADR 0018).
			waiting++
		case errors.Is(r.Refused, store.ErrBookmarkLimit):
			j.AddProblem(store.ImportProblem{Item: e.Item, Reason: "over the limit: " + limits.BookmarkCapReason()})
			done[idx[k]] = true
		case r.Created:
			e.State = store.EntryAdded
			j.Added++
		default:
			e.State = store.EntryAlready
			j.Already++
		}
		if r.Moved {
			j.ProgressApplied++
		}
	}
	for i, e := range j.Entries {
		if !done[i] {
			kept = append(kept, e)
		}
	}
	j.Entries, j.Waiting = kept, waiting
	now := s.cfg.Now()
	if waiting > 0 {
		next := now.Add(refillFor(limits, waiting))
		j.State, j.NextAt, j.DueAt = store.ImportWaiting, &next, &next
	} else {
		j.State, j.NextAt, j.DueAt, j.FinishedAt = store.ImportDone, nil, nil, &now
	}
	if err := s.cfg.Store.SaveImport(ctx, j); err != nil {
		return fmt.Errorf("imports: apply %d: %w", j.ID, err)
	}
	s.cfg.Log.Info("import applied", "import_id", j.ID, "reader_id", j.ReaderID, "kind", j.Kind,
		"added", j.Added, "already", j.Already, "waiting", j.Waiting, "unsupported", j.UnsupportedCount)
	return nil
}

// storeIDs stores the external ids of the entries whose bookmark is in
// (added, or there already) as the importing Reader's word, linking their
// Series in that Reader's library only (docs/adr/0021, "Whose word"). An
// id kept but not linked (its Work holds that Site already) or left out
// is listed with the job's problems.
func (s *Service) storeIDs(ctx context.Context, j *store.ImportJob, entries []store.ImportEntry, res []store.ImportResult) error {
	var items []store.SeriesIDs
	label := map[[2]string]string{}
	for k, r := range res {
		if e := entries[k]; r.Refused == nil && len(e.IDs) > 0 {
			items = append(items, store.SeriesIDs{Site: e.Site, SeriesID: e.SeriesID, ReaderID: j.ReaderID, IDs: e.IDs})
			label[[2]string{e.Site, e.SeriesID}] = e.Item
		}
	}
	if len(items) == 0 {
		return nil
	}
	lr, err := s.cfg.Store.AddSeriesIDs(ctx, items)
	for _, n := range lr.LeftOut {
		j.AddProblem(store.ImportProblem{Item: label[[2]string{n.Site, n.SeriesID}], Reason: "its " + n.ID.Kind + " id " + n.ID.Value + " was " + n.Reason})
	}
	for _, n := range lr.NotLinked {
		j.AddProblem(store.ImportProblem{Item: label[[2]string{n.Site, n.SeriesID}],
			Reason: "its " + n.ID.Kind + " id " + n.ID.Value + " was kept but not linked: " + n.Reason})
	}
	return err
}

// refillFor is how long the allowance takes to admit n more new Series (at
// most an hour's worth, so a long queue resumes in hourly steps).
func refillFor(l store.ReaderLimits, n int) time.Duration {
	per := l.NewSeriesPerHour
	if per <= 0 {
		return time.Hour
	}
	if n > per {
		n = per
	}
	return time.Duration(n) * time.Hour / time.Duration(per)
}

// RunOnce takes the imports that are due (a waiting import whose allowance
// has refilled, a MangaDex list to read, an import a stopped process left)
// and applies them. The background loop calls it; tests call it with a
// test clock.
func (s *Service) RunOnce(ctx context.Context) error {
	jobs, err := s.cfg.Store.ClaimDueImports(ctx, s.cfg.Now(), s.cfg.Lease, 20)
	if err != nil {
		return fmt.Errorf("imports: run: %w", err)
	}
	var errs []error
	for i := range jobs {
		j := &jobs[i]
		if j.Kind == KindMangaDexList && j.Total == 0 && len(j.Entries) == 0 && j.UnsupportedCount == 0 {
			if err := s.readList(ctx, j); err != nil {
				errs = append(errs, err)
				continue
			}
			if j.State == store.ImportFailed {
				continue
			}
		}
		if err := s.apply(ctx, j); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Start resumes waiting imports in the background until Stop (or ctx
// ends). Start twice is a no-op.
func (s *Service) Start(ctx context.Context) { s.resumer.Start(ctx, s.resume) }

// Stop ends the background loop, cancelling a pass in progress (its
// import's lease lets the next pass take it up), and waits for it. Stop
// without Start, or twice, is a no-op.
func (s *Service) Stop() { s.resumer.Stop() }

// resume runs RunOnce every Every until ctx ends.
func (s *Service) resume(ctx context.Context) {
	t := time.NewTicker(s.cfg.Every) // wall time: how often to look, not what is due
	defer t.Stop()
	for {
		pass, cancel := context.WithTimeout(ctx, s.cfg.Lease)
		if err := s.RunOnce(pass); err != nil && ctx.Err() == nil {
			s.cfg.Log.Warn("resume failed", "error", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
