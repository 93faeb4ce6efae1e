package api

import (
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// limitWrites answers 429 when the calling Reader has used up their write
// budget (all their tokens and sessions together), shared with the pages (tokenbudget; Config.NoLimits turns the
// limit off for benchmarks).
func (s *Server) limitWrites(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := identityFrom(r.Context())
		if !s.NoLimits && !s.Budget.Write(id.ReaderID) {
			w.Header().Set("Retry-After", strconv.Itoa(5))
			writeError(w, http.StatusTooManyRequests, "too many writes from you (all your tokens count together); wait a few seconds and send them again")
			return
		}
		h(w, r)
	}
}

// siteOr404 returns the registered Site named in the path, or answers 404
// naming the known Sites.
func (s *Server) siteOr404(w http.ResponseWriter, name string) *sites.Site {
	if site := s.Sites.Get(name); site != nil {
		return site
	}
	writeError(w, http.StatusNotFound, "unknown Site "+strconv.Quote(name)+"; the Sites are: "+s.siteNames())
	return nil
}

func (s *Server) siteNames() string {
	if len(s.Sites.All()) == 0 {
		return "(none registered)"
	}
	return strings.Join(s.Sites.Names(), ", ")
}

// internalError logs err and answers 500 without its text.
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, what string, err error) {
	if store.IsUnavailable(err) {
		s.Log.Warn(what+": database unavailable", "path", r.URL.Path, "error", err)
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "the server's database does not answer right now; nothing was saved, try again shortly")
		return
	}
	s.Log.Error(what, "path", r.URL.Path, "error", err)
	writeError(w, http.StatusInternalServerError, "the server hit an internal error; try again, and tell the Owner if it persists")
}

// canonicalReason turns a Canonicalize error into the sentence of a 422,
// from the error's Reason (sites.URLReason), never its text.
func canonicalReason(err error) string {
	return sites.RefusedURLSentence(err)
}
