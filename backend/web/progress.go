package web

import (
	"net/http"

	"mangabookmark/backend/sites"
)

// setProgress is the library's Progress correction: it sets the Progress
// of a bookmarked Series to exactly the number in the form, lower or
// higher (after a forged read, say; docs/adr/0018-forged-reads-and-junk-series.md).
func (h *Handler) setProgress(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	number, ok := sites.ParseNumber(r.PostFormValue("number"))
	if !ok {
		h.errorPage(w, r, http.StatusBadRequest, "Not a chapter number",
			"Type the chapter you have read up to as a number, such as 12 or 12.5.")
		return
	}
	err := h.Store.SetProgress(r.Context(), v.ReaderID, r.PathValue("site"), r.PathValue("series_id"), number, "", h.Now())
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	seeOther(w, r, readerBack(r))
}
