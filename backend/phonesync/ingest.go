package phonesync

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/store"
)

// ErrUnreadable marks a library the .tachibk reader refuses: it is stored
// all the same (the SyncYomi server stores any bytes), only not read.
var ErrUnreadable = errors.New("phonesync: the library is not a readable backup")

// Ingest reads one inflated library into the Reader's data (reads in):
// through the .tachibk reader and the Site resolver an import uses, each
// favourite on one of the Sites becomes a bookmark within the Reader's
// limits when the Reader's add_favorites is on; its furthest chapter
// marked read (a partly read chapter is not) moves the bookmark's
// Progress forward only, with source sync; its tracking rows become
// external ids of source sync, the Reader's word. Nothing is removed.
// A library the reader refuses is ErrUnreadable (or ErrTooLarge) and
// changes nothing. Ingest reads every manga; a v1 upload (Put) reads only
// those changed since the last one.
func (s *Service) Ingest(ctx context.Context, readerID int64, backup []byte) (Result, error) {
	b, err := s.decode(backup)
	if err != nil {
		return Result{}, err
	}
	read, err := s.cfg.Store.GetSyncReadIn(ctx, readerID)
	if err != nil {
		return Result{}, fmt.Errorf("phonesync: ingest: %w", err)
	}
	res, _, err := s.apply(ctx, readerID, b, read.AddFavorites)
	return res, err
}

// decode reads a library (or the part of one a plan reads) with the
// .tachibk reader, within the caps.
func (s *Service) decode(backup []byte) (*tachibk.Backup, error) {
	b, err := tachibk.Read(bytes.NewReader(backup), tachibk.Limits{MaxInflated: s.cfg.MaxInflated, MaxManga: imports.MaxItems})
	var te *tachibk.Error
	switch {
	case err == nil:
		return b, nil
	case errors.As(err, &te) && errors.Is(te.Kind, tachibk.ErrTooLarge):
		return nil, fmt.Errorf("%w: %s", ErrTooLarge, te.Reason)
	case errors.As(err, &te):
		return nil, fmt.Errorf("%w: %s", ErrUnreadable, te.Reason)
	}
	return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
}

// apply reads a decoded library into the Reader's data (Ingest's rules);
// refused are the Series whose favourite the limits refused (the next
// upload tries them again).
func (s *Service) apply(ctx context.Context, readerID int64, b *tachibk.Backup, addFavorites bool) (res Result, refused map[store.SyncKey]bool, err error) {
	res = Result{Manga: len(b.Manga)}
	p, err := imports.ParseTachibk(b, s.cfg.Sites)
	if err != nil {
		return Result{}, nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	plan := imports.MakePlan(p, s.cfg.Sites)
	entries := plan.Entries
	res.Matched = len(entries)
	if len(entries) == 0 {
		return res, nil, nil
	}
	now := s.cfg.Now().UTC()
	for i := range entries {
		if entries[i].Number != "" && entries[i].ReadAt == nil {
			entries[i].ReadAt = &now
		}
		for k := range entries[i].IDs {
			entries[i].IDs[k].Source = store.IDFromSync
		}
	}
	out, err := s.cfg.Store.ApplySyncReads(ctx, readerID, entries, addFavorites)
	if err != nil {
		return Result{}, nil, fmt.Errorf("phonesync: ingest: %w", err)
	}
	refused = map[store.SyncKey]bool{}
	limits := s.cfg.Store.ReaderLimits()
	var ids []store.SeriesIDs
	for i, r := range out {
		e := entries[i]
		if r.Moved {
			res.ProgressMoved++
		}
		if r.Created {
			res.BookmarksAdded++
		}
		if r.Refused != nil {
			refused[store.SyncKey{Site: e.Site, SeriesID: e.SeriesID}] = true
		}
		switch {
		case errors.Is(r.Refused, store.ErrBookmarkLimit):
			res.NotAdded++
			res.NotAddedItems = append(res.NotAddedItems, store.ImportProblem{Item: e.Item, Reason: "over the limit: " + limits.BookmarkCapReason()})
		case r.Refused != nil:
			res.NotAdded++
			res.NotAddedItems = append(res.NotAddedItems, store.ImportProblem{Item: e.Item,
				Reason: "not added now: " + refusedReason(r.Refused) + "; the next sync tries again"})
		case r.Have && len(e.IDs) > 0:
			ids = append(ids, store.SeriesIDs{Site: e.Site, SeriesID: e.SeriesID, ReaderID: readerID, IDs: e.IDs})
		}
	}
	if len(ids) > 0 {
		// What is left out or not linked stays the Reader's word unlinked;
		// the library page's ids say so, not the sync's result.
		if _, err := s.cfg.Store.AddSeriesIDs(ctx, ids); err != nil {
			return Result{}, nil, fmt.Errorf("phonesync: ingest: %w", err)
		}
	}
	if len(res.NotAddedItems) > store.MaxStoredProblems {
		res.NotAddedItems = res.NotAddedItems[:store.MaxStoredProblems]
	}
	return res, refused, nil
}

// refusedReason says why a favourite is not a bookmark yet.
func refusedReason(err error) string {
	switch {
	case errors.Is(err, store.ErrNewSeriesLimit):
		return "your allowance of new Series this hour is used up"
	case errors.Is(err, store.ErrNeverReadLimit):
		return "too many of your Series have never been read by the server yet"
	}
	return "your limits refused it"
}

// IngestMerged reads in a protocol v2 merge's upload (Ingest) and records
// it on the Reader's card as a v1 upload is: last upload, last result and
// the day's uploads and moves.
func (s *Service) IngestMerged(ctx context.Context, readerID int64, backup []byte) (Result, error) {
	res, err := s.Ingest(ctx, readerID, backup)
	if err != nil {
		return Result{}, err
	}
	if err := s.cfg.Store.SetSyncV2Result(ctx, readerID, res, s.cfg.Now()); err != nil {
		s.cfg.Log.Warn("phone sync v2 result not recorded", "reader_id", readerID, "error", err)
	}
	return res, nil
}
