package store

import (
	"context"
	"fmt"
)

// Notify modes of a bookmark.
const (
	NotifyEach = "each" // every New Chapter, in the Reader's next Digest
	NotifyOff  = "off"  // never
	NotifyPile = "pile" // held until Pile are unread or PileDays have passed
)

// The pile thresholds' bounds, as the bookmarks table checks them (each
// from 1).
const (
	NotifyPileMax     = 1000 // chapters unread
	NotifyPileDaysMax = 60   // days since the first held
)

// SetBookmarkNotify sets a bookmark's notify mode and pile thresholds
// (checked by the caller; the table's checks are the last line) and
// returns the bookmark, or ErrNotFound when the Reader has no such
// bookmark.
func (s *Store) SetBookmarkNotify(ctx context.Context, readerID int64, site, seriesID, mode string, pile, pileDays int) (Bookmark, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE bookmarks SET notify_mode = $4, notify_pile = $5, notify_pile_days = $6
		WHERE reader_id = $1 AND site = $2 AND series_id = $3`, readerID, site, seriesID, mode, pile, pileDays)
	if err != nil {
		return Bookmark{}, fmt.Errorf("store: set bookmark notify: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return Bookmark{}, ErrNotFound
	}
	return s.GetBookmark(ctx, readerID, site, seriesID)
}
