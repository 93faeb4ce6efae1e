package web

import (
	"errors"
	"net/http"
	"strconv"

	"mangabookmark/backend/store"
)

// The "follow on {Site} instead" offer of a Work, as forms
// (docs/adr/0021-works-link-by-ids.md, "Follow instead"): a Reader whose
// only bookmark in a Work has failed for over a day may follow the
// offered member, their Progress carried by number, or decline; either
// is for good. The forms post here with the session's csrf field, like
// every form; the partial "workoffer" draws them where a Work is shown:
//
//	{{template "workoffer" (workOffer .Work $csrf $back)}}
//
// with .Work a store.Work and $back the page to return to.

// workOfferForm is the data of the "workoffer" partial.
type workOfferForm struct {
	WorkID int64
	From   string // the failing member's title
	Offer  *store.WorkMember
	CSRF   string
	Back   string
}

// workOffer builds the partial's data; a Work with no offer draws nothing.
func workOffer(w store.Work, csrf, back string) workOfferForm {
	f := workOfferForm{WorkID: w.ID, Offer: w.Offer, CSRF: csrf, Back: back}
	for _, m := range w.Members {
		if m.Bookmarked && m.FailingSince != nil {
			f.From = m.Title
		}
	}
	return f
}

// workOfferRoutes registers the offer's two forms.
func (h *Handler) workOfferRoutes() {
	h.handle("POST /library/works/{id}/follow", h.post(h.followWork))
	h.handle("POST /library/works/{id}/decline", h.post(h.declineFollow))
}

// heldWorkOr404 is the Work {id} as the Reader holds it, or the
// not-in-your-library page (the unavailable one for a store failure).
func (h *Handler) heldWorkOr404(w http.ResponseWriter, r *http.Request) (store.Work, bool) {
	v := viewerFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		err = store.ErrNotFound
	} else {
		var wk store.Work
		if wk, err = h.Store.ReaderWork(r.Context(), v.ReaderID, id, h.Now()); err == nil {
			return wk, true
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "No Work of yours has that number.")
	} else {
		h.unavailable(w, r, err)
	}
	return store.Work{}, false
}

// followWork bookmarks the member the form names, Progress carried, and
// returns to the form's page.
func (h *Handler) followWork(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWorkOr404(w, r)
	if !ok {
		return
	}
	v := viewerFrom(r.Context())
	err := h.Store.FollowInstead(r.Context(), v.ReaderID, wk.ID, r.PostFormValue("site"), r.PostFormValue("series_id"), h.Now())
	switch {
	case errors.Is(err, store.ErrBookmarkLimit), errors.Is(err, store.ErrNewSeriesLimit), errors.Is(err, store.ErrNeverReadLimit):
		h.errorPage(w, r, http.StatusConflict, "Over your bookmark limits", "Remove a bookmark you no longer follow, then follow this Site again.")
	case errors.Is(err, store.ErrNotFound):
		h.errorPage(w, r, http.StatusNotFound, "Not a member", "That Series is no member of this Work.")
	case err != nil:
		h.unavailable(w, r, err)
	default:
		seeOther(w, r, readerBack(r))
	}
}

// declineFollow declines the Work's offer for good and returns to the
// form's page.
func (h *Handler) declineFollow(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWorkOr404(w, r)
	if !ok {
		return
	}
	v := viewerFrom(r.Context())
	err := h.Store.DeclineFollow(r.Context(), v.ReaderID, wk.ID, h.Now())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, readerBack(r))
}
