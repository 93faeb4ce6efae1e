package api

import (
	"net/http"
	"strconv"
)

// getUserscript serves the userscript New rendered for PUBLIC_BASE_URL.
func (s *Server) getUserscript(w http.ResponseWriter, r *http.Request) {
	body := s.userjs
	if body == nil {
		writeError(w, http.StatusNotFound, "this server does not serve the userscript")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
