package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"mangabookmark/backend/store"
)

// seriesChapters is how many of a Series' latest Chapter Events its page
// lists.
const seriesChapters = 10

// seriesView is a Series page: the card's facts and every control the
// card keeps one step away (Progress correction, notice mode, Remove), its
// external ids, its Work and the Series whose titles look like it.
type seriesView struct {
	Item        libraryItem
	Failing     string // the outcome word of the failure row, "" when none
	Chapters    []seriesChapter
	Back        string // this page's path, for the forms' "back"
	IDs         []idRow
	WorkPath    string // the Work page when the Series is a member of one, else ""
	Suggestions []suggestionRow
	Kinds       []string // the external id kinds, for the "name an id" form
	Crosswalk   bool     // some id came from the crosswalk: MangaBaka is credited
	Flash       string
	Error       string
	Field       fieldError // a refused Progress value, beside its field
}

// seriesChapter is one of the Series' latest Chapter Events (on a Work
// page, of one of its members: Site says which).
type seriesChapter struct {
	Number, Title, URL, Seen string
	Site                     string
	at                       time.Time
}

// seriesPage shows one bookmark of the session's Reader; a Series they do
// not bookmark is a 404, as in the API.
func (h *Handler) seriesPage(w http.ResponseWriter, r *http.Request) {
	h.showSeries(w, r, http.StatusOK, r.PathValue("site"), r.PathValue("series_id"), flashes[r.URL.Query().Get("done")], "")
}

// showSeries renders a Series page with a flash or an error, and a
// refused Progress value when one is given.
func (h *Handler) showSeries(w http.ResponseWriter, r *http.Request, status int, site, id, flash, problem string, field ...fieldError) {
	v := viewerFrom(r.Context())
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
	card, err := h.Store.ReaderSeries(r.Context(), v.ReaderID, site, id)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	now := h.readerNow(r)
	sv := &seriesView{Item: cardOf(it, now), Failing: it.FailingOutcome, Kinds: idKinds, Flash: flash, Error: problem}
	sv.Back = sv.Item.PagePath
	if len(field) > 0 {
		sv.Field = field[0]
	}
	k, ksite, kstatus := libraryCard{items: []store.LibraryItem{it}}.clock()
	h.withTime(&sv.Item, k, ksite, kstatus, now)
	// Not read yet and its Site refuses us: say so, as the library card
	// does, instead of "checking…".
	if sv.Item.Checking && sv.Item.LatestNumber == "" {
		refusing, err := h.refusals(r.Context(), []string{site}, now)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		sv.Item.Refusing = refusing[site]
	}
	for _, e := range evs {
		sv.Chapters = append(sv.Chapters, seriesChapter{Number: e.Number, Title: chapterTitle(e.ChapterTitle, e.Number),
			URL: siteLink(e.URL), Seen: ago(now, e.SeenAt)})
	}
	for _, x := range card.IDs {
		sv.IDs = append(sv.IDs, idRow{Site: site, Kind: x.Kind, Value: x.Value, Source: x.Source})
		sv.Crosswalk = sv.Crosswalk || x.Source == store.IDFromCrosswalk
	}
	// The Work as the Reader sees it (their own hand link first), as the
	// library's card: only a Work that holds this bookmark.
	if it.WorkID != nil {
		sv.WorkPath = workPath(store.Work{ID: *it.WorkID})
	}
	for _, g := range card.Suggestions {
		sv.Suggestions = append(sv.Suggestions, suggestionOf(g, now, "/series/"+url.PathEscape(site)+"/"+url.PathEscape(id)))
	}
	h.render(w, r, status, "series", page{Title: sv.Item.Title, V: v, Series: sv})
}

// refusals is RefusingSites of sites worded for a page: "{Site} refuses us
// since 3 h ago" by Site, none for a Site that reads.
func (h *Handler) refusals(ctx context.Context, sites []string, now time.Time) (map[string]string, error) {
	since, err := h.Store.RefusingSites(ctx, sites, now)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(since))
	for site, at := range since {
		out[site] = site + " refuses us since " + shortAgo(now, at)
	}
	return out, nil
}
