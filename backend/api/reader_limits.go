package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"mangabookmark/backend/store"
)

// The Reader limits on new Series and bookmarks live in the store (one
// transaction decides them, across processes); this file turns their
// refusals into answers (docs/adr/0010-fair-due-order-and-reader-limits.md).

// limitReason explains a store limit refusal to the Reader, for the
// "errors" list of POST /api/progress and the body of POST /api/bookmarks:
// one sentence, never the error's text.
func (s *Server) limitReason(err error) string {
	l := s.Store.ReaderLimits()
	switch {
	case errors.Is(err, store.ErrNewSeriesLimit):
		return fmt.Sprintf("new_series_limit: this names a Series the server does not follow yet, and you have "+
			"added %d new Series in the last hour, the most one Reader may; nothing was saved for it; "+
			"send it again later (one more is allowed about every %s)", l.NewSeriesPerHour, newSeriesEvery(l))
	case errors.Is(err, store.ErrNeverReadLimit):
		return fmt.Sprintf("never_read_limit: you keep %d bookmarks of Series the server has never read a chapter of, "+
			"the most one Reader may; nothing was saved for it; remove the ones that are not real Series, "+
			"or wait until the server reads them, then send it again", l.MaxNeverRead)
	case errors.Is(err, store.ErrBookmarkLimit):
		return "bookmark_limit: " + l.BookmarkCapReason()
	}
	// Not a limit the Reader can act on by name: a fixed sentence, the
	// error itself only in the log.
	s.Log.Warn("read refused without a named limit", "error", err)
	return "this was refused and nothing was saved for it; send it again later, and tell the Owner if it keeps happening"
}

// newSeriesEvery is how often the allowance of new Series gains one.
func newSeriesEvery(l store.ReaderLimits) time.Duration {
	if l.NewSeriesPerHour <= 0 {
		return time.Hour
	}
	return (time.Hour / time.Duration(l.NewSeriesPerHour)).Round(time.Second)
}

// writeLimitRefusal answers a bookmark the limits refused: 429 with
// Retry-After for the hourly allowance of new Series, 409 for the
// bookmark cap (waiting does not help; removing bookmarks does). It
// reports false when err is no limit refusal.
func (s *Server) writeLimitRefusal(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, store.ErrNewSeriesLimit):
		w.Header().Set("Retry-After", strconv.Itoa(int(newSeriesEvery(s.Store.ReaderLimits()).Seconds())))
		writeError(w, http.StatusTooManyRequests, s.limitReason(err))
	case errors.Is(err, store.ErrBookmarkLimit), errors.Is(err, store.ErrNeverReadLimit):
		writeError(w, http.StatusConflict, s.limitReason(err))
	default:
		return false
	}
	return true
}
