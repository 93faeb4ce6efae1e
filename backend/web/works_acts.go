package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// The Work page's acts (works.go): each posts, then redirects back with a
// flash (?done=); a refused value answers 400 with the page and the
// reason, and nothing changes.

// flashes are the messages an act's redirect may ask for (?done=): a
// fixed set, so nothing in the URL is ever shown as text. Mark read and
// the Progress correction say what they did in the signed flash instead
// (setFlash, flash.go).
var flashes = map[string]string{
	"notify":   "Notice settings saved.",
	"offset":   "Offset saved for you: your numbers of this Work are recomputed; other Readers keep theirs.",
	"unlink":   "Member unlinked for you: it is no part of this Work in your library; other Readers keep it. Link it by hand to undo.",
	"unlinked": "Member unlinked for everyone: another Reader had unlinked it too, so external ids will not link it to this Work again.",
	"linked":   "Linked: these Series are one story in your library.",
	"id":       "External id saved.",
	"state":    "Reading state saved on every member you bookmark.",
}

// workRead marks the Work read up to its Latest, on every member the
// Reader bookmarks (forward only).
func (h *Handler) workRead(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	number := ""
	if wk.Latest != nil {
		number = wk.Latest.Number
		err := h.Store.SetWorkProgress(r.Context(), viewerFrom(r.Context()).ReaderID, wk.ID, wk.Latest.Number, true, h.Now())
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	h.setFlash(w, r, readSentence(number, wk.Title), "")
	seeOther(w, r, readerBack(r))
}

// workProgress is the Work's Progress correction: exactly the number
// given, lower or higher, carried to every member the Reader bookmarks.
func (h *Handler) workProgress(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	typed := r.PostFormValue("number")
	number, ok := sites.ParseNumber(typed)
	if !ok {
		h.showWork(w, r, http.StatusUnprocessableEntity, wk, "", "", refusedNumber(typed))
		return
	}
	err := h.Store.SetWorkProgress(r.Context(), viewerFrom(r.Context()).ReaderID, wk.ID, number, false, h.Now())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.unavailable(w, r, err)
		return
	}
	h.setFlash(w, r, "Progress set to ch. "+number+" on every member you bookmark: "+quoted(wk.Title), "")
	seeOther(w, r, workPath(wk))
}

// workNotify sets the notice mode of every member the Reader bookmarks
// (one notice per Work and number comes from whichever shows it first).
func (h *Handler) workNotify(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	mode, pile, days, problem := notifyForm(r)
	if problem != "" {
		h.showWork(w, r, http.StatusBadRequest, wk, "", problem+" Nothing was saved.")
		return
	}
	v := viewerFrom(r.Context())
	for _, m := range wk.Members {
		if !m.Bookmarked {
			continue
		}
		if _, err := h.Store.SetBookmarkNotify(r.Context(), v.ReaderID, m.Site, m.SeriesID, mode, pile, days); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	seeOther(w, r, withFlash(workPath(wk), "notify"))
}

// workRemove removes every bookmark of the Reader's in the Work, as one
// Undo.
func (h *Handler) workRemove(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	h.removeHeld(w, r, workKeys(wk), "Removed "+quoted(wk.Title))
}

// memberOffset sets the Reader's own offset on a member, as PUT
// /api/works/{id}/members/…: only their numbers move.
func (h *Handler) memberOffset(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	off, err := store.ParseOffset(r.PostFormValue("offset"))
	if err != nil {
		h.showWork(w, r, http.StatusBadRequest, wk, "", "Not an offset: "+err.Error()+". Nothing was saved.")
		return
	}
	_, err = h.Store.SetMemberOffset(r.Context(), viewerFrom(r.Context()).ReaderID, wk.ID, r.PathValue("site"), r.PathValue("series_id"), off)
	if errors.Is(err, store.ErrNotFound) {
		h.showWork(w, r, http.StatusNotFound, wk, "", "That Series is no shared member of this Work, so it has no offset to set.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, withFlash(workPath(wk), "offset"))
}

// memberUnlink takes a member out of the Work in the Reader's library
// (for everyone when a second Reader unlinks it), as DELETE
// /api/works/{id}/members/…; it returns to the Work while it still holds
// a bookmark of the Reader's, else to the Series page or the library.
func (h *Handler) memberUnlink(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	how, err := h.Store.UnlinkMember(r.Context(), v.ReaderID, wk.ID, site, id)
	if errors.Is(err, store.ErrNotFound) {
		h.showWork(w, r, http.StatusNotFound, wk, "", "That Series is no member of this Work for you: nothing was unlinked.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	back := workPath(wk)
	if _, err := h.Store.ReaderWork(r.Context(), v.ReaderID, wk.ID, h.Now()); errors.Is(err, store.ErrNotFound) {
		back = "/"
		if _, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id); err == nil {
			back = "/series/" + url.PathEscape(site) + "/" + url.PathEscape(id)
		}
	}
	flash := "unlink"
	if how == store.UnlinkedShared {
		flash = "unlinked"
	}
	seeOther(w, r, withFlash(back, flash))
}

// seriesLink is the Reader's "same story": this Series (one they
// bookmark) and the one named by the form's site and series_id are one
// Work, as POST /api/works/link → 303 to the Work's page.
func (h *Handler) seriesLink(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	a := store.SeriesRef{Site: r.PathValue("site"), SeriesID: r.PathValue("series_id")}
	b := store.SeriesRef{Site: r.PostFormValue("site"), SeriesID: r.PostFormValue("series_id")}
	if h.Sites.Get(b.Site) == nil || b.SeriesID == "" || len(b.SeriesID) > 300 || a == b {
		h.errorPage(w, r, http.StatusBadRequest, "Not a Series to link", "Choose one of the suggestions: a Series on one of the Sites, not this one.")
		return
	}
	work, err := h.Store.LinkByHand(r.Context(), v.ReaderID, a, b)
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You bookmark neither of those Series, or one is unknown: nothing was linked.")
		return
	}
	var full *store.WorkFullError
	if errors.As(err, &full) {
		h.errorPage(w, r, http.StatusConflict, "One Series per Site", capital(full.Error()))
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, withFlash("/works/"+strconv.FormatInt(work, 10), "linked"))
}

// seriesNameID stores an external id the Reader names for a Series they
// bookmark, as PUT /api/series/{site}/{series_id}/ids: it replaces the
// Reader's own id of that kind and links in the Reader's library only. A
// refused kind or value answers 400, a link past one Series per Site 409,
// with the page and the reason.
func (h *Handler) seriesNameID(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	site, sid := r.PathValue("site"), r.PathValue("series_id")
	if _, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, sid); h.bookmarkActFailed(w, r, err) {
		return
	}
	id := store.ExternalID{Kind: strings.TrimSpace(r.PostFormValue("kind")), Value: strings.TrimSpace(r.PostFormValue("value")), Source: store.IDFromReader}
	if strings.Contains(id.Value, "/") { // a link to the catalogue's page, as PUT /api/series/…/ids takes it
		if n, ok := sites.NormalizeID(id.Kind, id.Value); ok {
			id.Kind, id.Value = n.Kind, n.Value
		}
	}
	var ie *store.IDError
	if err := store.CheckExternalID(id); errors.As(err, &ie) {
		h.refuseOnBack(w, r, "Not an external id: "+ie.Reason+" Nothing was saved.")
		return
	}
	var full *store.WorkFullError
	if err := h.Store.NameSeriesID(r.Context(), v.ReaderID, site, sid, id); errors.As(err, &full) {
		h.refuseOnBackStatus(w, r, http.StatusConflict, capital(full.Error()))
		return
	} else if err != nil {
		h.unavailable(w, r, err)
		return
	}
	back := readerBack(r)
	if back == "/" {
		back = "/series/" + url.PathEscape(site) + "/" + url.PathEscape(sid)
	}
	// Naming an id may have made a Work of the page the form came from.
	seeOther(w, r, withFlash(back, "id"))
}

// refuseOnBack answers a refused form with 400 and the page it came from
// (its "back": a Work or Series page) showing the reason.
func (h *Handler) refuseOnBack(w http.ResponseWriter, r *http.Request, problem string) {
	h.refuseOnBackStatus(w, r, http.StatusBadRequest, problem)
}

// refuseOnBackStatus is refuseOnBack with another status (409 for a link
// past one Series per Site).
func (h *Handler) refuseOnBackStatus(w http.ResponseWriter, r *http.Request, status int, problem string) {
	back := readerBack(r)
	v := viewerFrom(r.Context())
	if rest, ok := strings.CutPrefix(back, "/works/"); ok {
		if id, err := strconv.ParseInt(rest, 10, 64); err == nil {
			if wk, err := h.Store.ReaderWork(r.Context(), v.ReaderID, id, h.Now()); err == nil {
				h.showWork(w, r, status, wk, "", problem)
				return
			}
		}
	}
	h.showSeries(w, r, status, r.PathValue("site"), r.PathValue("series_id"), "", problem)
}

// withFlash sets done=code on a local path: a done the path already
// carries (the page's own, after an earlier act) goes, so the page says
// what this act did; the other parameters keep their order and the
// fragment stays last.
func withFlash(path, code string) string {
	path, frag, hasFrag := strings.Cut(path, "#")
	base, query, _ := strings.Cut(path, "?")
	var keep []string
	for _, kv := range strings.Split(query, "&") {
		if kv != "" && kv != "done" && !strings.HasPrefix(kv, "done=") {
			keep = append(keep, kv)
		}
	}
	out := base + "?" + strings.Join(append(keep, "done="+code), "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// notifyForm reads a notice form (mode, pile, pile_days) with the rules of
// the Series page's: a problem is a sentence for the Reader.
func notifyForm(r *http.Request) (mode string, pile, days int, problem string) {
	mode = r.PostFormValue("mode")
	pile, err1 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("pile")))
	days, err2 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("pile_days")))
	switch {
	case mode != store.NotifyEach && mode != store.NotifyOff && mode != store.NotifyPile:
		problem = "Not a notice mode: choose each chapter, in a pile, or off."
	case err1 != nil || pile < 1 || pile > 1000:
		problem = "Not a pile size: a pile is a whole number of chapters from 1 to 1000."
	case err2 != nil || days < 1 || days > 60:
		problem = "Not a number of days: a pile waits a whole number of days from 1 to 60."
	}
	return mode, pile, days, problem
}

// capital starts a store's sentence with a capital letter and ends it with
// a full stop, for a page.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}
