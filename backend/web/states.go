package web

import (
	"net/http"

	"mangabookmark/backend/store"
)

// stateRoutes registers the Series page's reading-state form.
func (h *Handler) stateRoutes() {
	h.handle("POST /library/{site}/{series_id}/state", h.post(h.setState))
	h.handle("POST /works/{id}/state", h.post(h.setWorkState))
}

// setWorkState sets the Reader's reading state of a Work they hold, on
// every member they bookmark → 303 to the Work page with a flash; a value
// not of the six shows the page again with the reason.
func (h *Handler) setWorkState(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	state := r.PostFormValue("state")
	if !store.ValidState(state) {
		h.showWork(w, r, http.StatusBadRequest, wk, "", "Choose reading, rereading, plan to read, on hold, completed or dropped. Nothing was saved.")
		return
	}
	v := viewerFrom(r.Context())
	if err := h.Store.SetWorkState(r.Context(), v.ReaderID, wk.ID, state, h.Now()); err != nil {
		h.bookmarkActFailed(w, r, err)
		return
	}
	seeOther(w, r, withFlash(workPath(wk), "state"))
}

// setState sets a bookmark's reading state by hand → 303 back (the
// Series page or the library); a value not of the six is 400 naming them.
func (h *Handler) setState(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	state := r.PostFormValue("state")
	site, id := r.PathValue("site"), r.PathValue("series_id")
	if !store.ValidState(state) {
		h.showSeries(w, r, http.StatusBadRequest, site, id, "",
			"Not a reading state: choose reading, rereading, plan to read, on hold, completed or dropped. Nothing was saved.")
		return
	}
	err := h.Store.SetBookmarkState(r.Context(), v.ReaderID, site, id, state, h.Now())
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	h.setFlash(w, r, "Reading state saved: "+stateWord(state)+".", "")
	seeOther(w, r, readerBack(r))
}

// stateWord is a reading state as the pages say it.
func stateWord(state string) string {
	switch state {
	case store.StatePlan:
		return "plan to read"
	case store.StateOnHold:
		return "on hold"
	}
	return state
}

// statusWord is a story's status as the Series page says it.
func statusWord(status string) string {
	switch status {
	case store.StatusReleasing:
		return "releasing"
	case store.StatusCompleted:
		return "completed"
	case store.StatusHiatus:
		return "on hiatus"
	case store.StatusCancelled:
		return "cancelled"
	}
	return "status unknown"
}
