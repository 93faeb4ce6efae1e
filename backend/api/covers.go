package api

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"

	"mangabookmark/backend/store"
)

// getCover serves a stored cover with validators, so the userscript and
// browsers revalidate cheaply and keep showing covers when a Site is down.
func (s *Server) getCover(w http.ResponseWriter, r *http.Request) {
	site := s.siteOr404(w, r.PathValue("site"))
	if site == nil {
		return
	}
	// Only covers of the Reader's own bookmarks: a Series the Reader does
	// not follow answers exactly as one with no cover, so the answer
	// tells nothing of what other Readers follow.
	id, _ := identityFrom(r.Context())
	c, err := s.Store.GetReaderCover(r.Context(), id.ReaderID, site.Name, r.PathValue("series_id"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no cover is stored for that Series in your library")
		return
	}
	if err != nil {
		s.internalError(w, r, "load cover", err)
		return
	}
	sum := sha256.Sum256(c.Body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Last-Modified", c.FetchedAt.UTC().Format(http.TimeFormat))
	// Private: the path sits behind a Reader token.
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	// An image never runs anything, even opened on its own.
	h.Set("Content-Security-Policy", "default-src 'none'")
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if inm == etag || inm == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	} else if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil && !c.FetchedAt.Truncate(time.Second).After(t) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", c.ContentType)
	h.Set("Content-Length", strconv.Itoa(len(c.Body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(c.Body)
	}
}
