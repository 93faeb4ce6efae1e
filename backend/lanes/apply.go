package lanes

import (
	"context"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// apply writes what one read means (docs/architecture.md, "Outcomes and what they write"): a good
// read updates the Series and deletes its failure row; not_found,
// no_chapter, unfetchable and errors upsert the failure row (failing_since
// kept, an unchanged word writes nothing); refused and unreachable write
// nothing. Store errors are logged and the Lane goes on.
func (m *Manager) apply(ctx context.Context, l *lane, res *store.Pass, d store.DueSeries, r sites.Result) {
	s := l.site
	now := m.clock.Now()
	log := l.log.With("series_id", d.SeriesID, "outcome", string(r.Outcome))
	switch o := r.Outcome; {
	case o == sites.OK:
		res.OK++
		ch := r.Facts.Latest
		f := store.ReadFacts{Title: r.Facts.Title, CoverURL: r.Facts.CoverURL, Number: ch.Number, ChTitle: ch.Title, ChURL: ch.URL,
			IDs: storeIDs(r.Facts.IDs), AltTitles: r.Facts.AltTitles, Status: r.Facts.Status, FinalChapter: r.Facts.FinalChapter}
		if !ch.ReleasedAt.IsZero() {
			t := ch.ReleasedAt
			f.ReleasedAt = &t
		}
		ok, err := m.cfg.Store.RecordOK(ctx, s.Name, d.SeriesID, f, now)
		if err != nil {
			log.Error("cannot record a good read", "error", err)
			return
		}
		// The pass counts the Chapter Events its reads recorded, the New
		// Chapters the Readers' feeds show: not a moved Latest, which a
		// first read above a seeded baseline (no Latest yet) never is, and
		// which a number falling back also is.
		if ok.Event {
			res.New++
		}
		if ok.NeedCover {
			m.covers.heal(s, d.SeriesID, ok.CoverURL)
		}
	case o.WritesFailure():
		countFailure(res, r.Outcome)
		log.Info("read failed", "status", r.Status, "error", errText(r.Err))
		if err := m.cfg.Store.UpsertFailure(ctx, s.Name, d.SeriesID, string(r.Outcome), now); err != nil {
			log.Error("cannot write the failure row", "error", err)
		}
	case o == sites.Refused:
		res.Refused++
		log.Info("read refused by a challenge", "status", r.Status, "error", errText(r.Err))
	case o == sites.Unreachable:
		res.Unreachable++
	}
}

// storeIDs turns the page's external ids into the store's; the store
// keeps them as read from the Site.
func storeIDs(ids []sites.ExternalID) []store.ExternalID {
	if len(ids) == 0 {
		return nil
	}
	out := make([]store.ExternalID, len(ids))
	for i, id := range ids {
		out[i] = store.ExternalID{Kind: id.Kind, Value: id.Value, Source: store.IDFromSite}
	}
	return out
}

func countFailure(res *store.Pass, o sites.Outcome) {
	switch o {
	case sites.NotFound:
		res.NotFound++
	case sites.NoChapter:
		res.NoChapter++
	case sites.Unfetchable:
		res.Unfetchable++
	case sites.Errors:
		res.Errors++
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// record writes the pass row (on every return path, shutdown included),
// prunes old rows at most hourly, and then calls the notices hook.
func (m *Manager) record(ctx context.Context, l *lane, res *store.Pass) {
	res.FinishedAt = m.clock.Now()
	if res.Skip == SkipStopped && l.lockLost.Load() {
		res.Skip = SkipLockLost // the heartbeat stopped the Lane, not shutdown
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := m.cfg.Store.InsertPass(wctx, *res); err != nil {
		l.log.Error("cannot write the pass row", "error", err)
	}
	l.last = *res
	l.beat.setPass(nil)
	m.beat(wctx, l)
	if l.lastPrune.IsZero() || res.FinishedAt.Sub(l.lastPrune) >= pruneEvery {
		l.lastPrune = res.FinishedAt
		if n, err := m.cfg.Store.PrunePasses(wctx, l.site.Name, res.FinishedAt.Add(-PassRetention)); err != nil {
			l.log.Error("cannot prune old passes", "error", err)
		} else if n > 0 {
			l.log.Debug("pruned old passes", "deleted", n)
		}
	}
	lvl := l.log.Debug
	if res.Checked > 0 {
		lvl = l.log.Info
	}
	lvl("pass", "skip", res.Skip, "due", res.Due, "checked", res.Checked, "ok", res.OK, "new", res.New,
		"not_found", res.NotFound, "no_chapter", res.NoChapter, "unfetchable", res.Unfetchable,
		"errors", res.Errors, "refused", res.Refused, "unreachable", res.Unreachable,
		"behind_by", res.BehindBy.Round(time.Second).String())
	if m.cfg.OwnerNotices != nil {
		// Unlike the row, the evaluation is cut short by shutdown: the next
		// start evaluates again.
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		m.cfg.OwnerNotices.Evaluate(ectx, l.site, res.FinishedAt)
	}
}
