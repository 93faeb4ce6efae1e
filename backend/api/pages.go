package api

import (
	"context"
	"net/http"
	"strings"

	"mangabookmark/backend/auth"
)

// webPrefixes are the paths the web pages answer, routed to MountWeb's
// handler; everything else stays the JSON API's.
var webPrefixes = []string{"/{$}", "/login", "/login/", "/logout", "/library/", "/series/", "/works/", "/admin", "/admin/", "/web/", "/auth/discord/",
	"/import", "/import/", "/export.json", "/export.csv", "/notices", "/notices/", "/settings", "/trackers/",
	"/updates", "/updates/",
	"/sw.js", "/manifest.webmanifest"}

// MountWeb routes the web pages' paths to h (the backend/web handler).
// Call it once, before serving.
func (s *Server) MountWeb(h http.Handler) {
	for _, p := range webPrefixes {
		s.mux.Handle(p, h)
	}
}

// readerOrSession wraps h like reader, but a request without an
// Authorization header may instead carry a live web session (the library
// page's <img> tags): used for /covers/ only.
func (s *Server) readerOrSession(h http.HandlerFunc) http.HandlerFunc {
	bearer := s.reader(h)
	secure := strings.HasPrefix(s.BaseURL, "https://")
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || auth.SessionID(r, secure) == "" || s.Store == nil {
			bearer(w, r)
			return
		}
		// The cookie's one owner (auth.LookupSession) caps its length and
		// slides the session, as the pages do.
		sess, _, ok, err := auth.LookupSession(r.Context(), w, r, s.Store, s.Now(), secure, s.Log)
		if err != nil {
			s.Log.Warn("session check failed", "path", r.URL.Path, "error", err)
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusServiceUnavailable, "the server cannot check your session right now; try again shortly")
			return
		}
		if !ok {
			bearer(w, r) // answers 401 as for a missing token
			return
		}
		id := auth.Identity{ReaderID: sess.ReaderID, TokenID: sess.TokenID, DiscordID: sess.DiscordID, Name: sess.ReaderName}
		h(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
	}
}
