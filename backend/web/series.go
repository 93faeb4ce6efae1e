package web

import (
	"errors"
	"net/http"

	"mangabookmark/backend/store"
)

// seriesChapters is how many of a Series' latest Chapter Events its page
// lists.
const seriesChapters = 10

// seriesView is a Series page: the card's facts and every control the
// card keeps one step away (Progress correction, notice mode, Remove).
type seriesView struct {
	Item     libraryItem
	Failing  string // the outcome word of the failure row, "" when none
	Chapters []seriesChapter
	Back     string // this page's path, for the forms' "back"
}

// seriesChapter is one of the Series' latest Chapter Events.
type seriesChapter struct {
	Number, Title, URL, Seen string
}

// seriesPage shows one bookmark of the session's Reader; a Series they do
// not bookmark is a 404, as in the API.
func (h *Handler) seriesPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	it, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id)
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You have no bookmark for that Series.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	evs, err := h.Store.SeriesChapters(r.Context(), site, id, seriesChapters)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	now := h.Now()
	sv := &seriesView{Item: cardOf(it, "", now), Failing: it.FailingOutcome}
	sv.Back = sv.Item.PagePath
	for _, e := range evs {
		sv.Chapters = append(sv.Chapters, seriesChapter{Number: e.Number, Title: chapterTitle(e.ChapterTitle, e.Number),
			URL: siteLink(e.URL), Seen: ago(now, e.SeenAt)})
	}
	h.render(w, r, http.StatusOK, "series", page{Title: sv.Item.Title, V: v, Series: sv})
}
