package api

import (
	"net/http"
	"strconv"

	"mangabookmark/backend/userscript"
)

// getUserscript serves the userscript rendered for PUBLIC_BASE_URL.
func (s *Server) getUserscript(w http.ResponseWriter, r *http.Request) {
	if s.Userjs == nil {
		writeError(w, http.StatusNotFound, "this server does not serve the userscript")
		return
	}
	body := userscript.Render(s.Userjs, s.BaseURL)
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
