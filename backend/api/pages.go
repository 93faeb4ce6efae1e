package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/store"
)

// SessionCookie is the web pages' session cookie. The JSON API never reads
// it (a cookie must not authenticate /api/*); only the pages and /covers/
// do (docs/adr/0009-web-pages-and-sessions.md).
const SessionCookie = "mb_session"

// webPrefixes are the paths the web pages answer, routed to MountWeb's
// handler; everything else stays the JSON API's.
var webPrefixes = []string{"/{$}", "/login", "/login/", "/logout", "/library/", "/admin", "/admin/", "/web/",
	"/sw.js", "/manifest.webmanifest", "/settings/push/"}

// MountWeb routes the web pages' paths to h (the backend/web handler).
// Call it once, before serving.
func (s *Server) MountWeb(h http.Handler) {
	for _, p := range webPrefixes {
		s.mux.Handle(p, h)
	}
}

// LaneViews is every Lane exactly as GET /api/admin/lanes answers it, in
// registry order: the web pages show the same computation.
func (s *Server) LaneViews(ctx context.Context) ([]client.Lane, error) {
	return s.adminLaneViews(ctx, s.Sites.All())
}

// WakeLane wakes the running Lane of site (after a Force or a pause), as
// the admin API does; a no-op when no Lanes run here.
func (s *Server) WakeLane(site string) {
	if s.Lanes != nil {
		s.Lanes.Wake(site)
	}
}

// PauseUntil validates a pause as POST /api/admin/lanes/{site}/pause does
// and returns its end, or a message saying what is wrong.
func PauseUntil(req client.PauseRequest, now time.Time) (time.Time, string) {
	return adminPauseUntil(req, now)
}

// MaxPauseReason is the longest pause reason accepted, in characters.
const MaxPauseReason = adminMaxReason

// readerOrSession wraps h like reader, but a request without an
// Authorization header may instead carry a live web session (the library
// page's <img> tags): used for /covers/ only.
func (s *Server) readerOrSession(h http.HandlerFunc) http.HandlerFunc {
	bearer := s.reader(h)
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(SessionCookie)
		if r.Header.Get("Authorization") != "" || err != nil || c.Value == "" || s.Store == nil {
			bearer(w, r)
			return
		}
		_, err = s.Store.SessionByHash(r.Context(), store.SessionHash(c.Value), s.Now())
		if errors.Is(err, store.ErrNotFound) {
			bearer(w, r) // answers 401 as for a missing token
			return
		}
		if err != nil {
			s.Log.Warn("session check failed", "path", r.URL.Path, "error", err)
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusServiceUnavailable, "the server cannot check your session right now; try again shortly")
			return
		}
		h(w, r)
	}
}
