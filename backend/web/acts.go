package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// The Reader's acts on bookmarks from the library, a Series page or a
// Work page: each returns to the page it came from (its "back": page,
// filter, sort and page number; the script keeps the scroll) with a
// flash saying what it did. Remove keeps what Undo needs for
// store.UndoKeep (docs/adr/0033-undo-of-remove.md).

// maxBulk bounds one bulk act's selection (a page shows PageSize cards).
const maxBulk = 200

// maxTyped bounds a refused value shown again beside its field.
const maxTyped = 64

// fieldError is a refused Progress value: the reason, shown beside the
// field, and what was typed, shown in it again.
type fieldError struct {
	Problem, Typed string
}

// markRead sets the Progress of a bookmarked Series to its Latest Chapter.
func (h *Handler) markRead(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	_, err := h.Store.MarkRead(r.Context(), v.ReaderID, site, id, h.Now())
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	it, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id)
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	h.setFlash(w, r, readSentence(it.ProgressNumber, titleOf(it)), "")
	seeOther(w, r, readerBack(r))
}

// readSentence is Mark read's flash.
func readSentence(number, title string) string {
	if number == "" {
		return "Nothing to mark read yet: " + quoted(title) + " has no chapter."
	}
	return "Marked read up to ch. " + number + ": " + quoted(title)
}

// titleOf is a bookmark's title as its card shows it.
func titleOf(it store.LibraryItem) string {
	switch {
	case it.Title != "":
		return it.Title
	case it.GivenTitle != "":
		return it.GivenTitle
	}
	return it.SeriesID
}

// remove deletes a bookmark and keeps what Undo needs.
func (h *Handler) remove(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	it, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id)
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	h.removeHeld(w, r, []store.BookmarkKey{{Site: site, SeriesID: id}}, "Removed "+quoted(titleOf(it)))
}

// removeHeld removes keys with a hold for Undo, flashes text with the
// Undo button and returns to the form's back (the library when back is
// the page of what was removed).
func (h *Handler) removeHeld(w http.ResponseWriter, r *http.Request, keys []store.BookmarkKey, text string) {
	v := viewerFrom(r.Context())
	now := h.Now()
	token, err := h.Store.RemoveBookmarksHeld(r.Context(), v.ReaderID, keys, now, now.Add(store.UndoKeep))
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	h.setFlash(w, r, text, token)
	back := readerBack(r)
	if strings.HasPrefix(back, "/series/") || strings.HasPrefix(back, "/works/") {
		back = "/" // its page is gone with it
	}
	seeOther(w, r, back)
}

// undo puts back what the Reader's last Remove took (form "undo": the
// hold's token, from the flash's form).
func (h *Handler) undo(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	keys, err := h.Store.UndoRemove(r.Context(), v.ReaderID, r.PostFormValue("undo"), h.Now())
	switch {
	case errors.Is(err, store.ErrUndoExpired):
		h.setFlash(w, r, fmt.Sprintf("Too late to undo: a Remove can be undone for %d minutes. Bookmark the Series again on its Site; your next read sets its Progress.",
			int(store.UndoKeep.Minutes())), "")
	case errors.Is(err, store.ErrUndoGone):
		h.setFlash(w, r, "Nothing to undo: that Remove was undone already, or a later Remove took its place.", "")
	case err != nil:
		h.unavailable(w, r, err)
		return
	case len(keys) == 1:
		title := keys[0].SeriesID
		if it, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, keys[0].Site, keys[0].SeriesID); err == nil {
			title = titleOf(it)
		}
		h.setFlash(w, r, "Put back: "+quoted(title)+", with its Progress and settings.", "")
	default:
		h.setFlash(w, r, fmt.Sprintf("Put back %d bookmarks, with their Progress and settings.", len(keys)), "")
	}
	seeOther(w, r, readerBack(r))
}

// setProgress is the library's Progress correction: it sets the Progress
// of a bookmarked Series to exactly the number in the form, lower or
// higher (after a forged read, say; docs/adr/0018-forged-reads-and-junk-series.md).
// A value that is no chapter number answers 422 with the Series page, the
// reason beside the field and the value typed in it.
func (h *Handler) setProgress(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	typed := r.PostFormValue("number")
	number, ok := sites.ParseNumber(typed)
	if !ok {
		h.showSeries(w, r, http.StatusUnprocessableEntity, site, id, "", "", refusedNumber(typed))
		return
	}
	err := h.Store.SetProgress(r.Context(), v.ReaderID, site, id, number, "", h.Now())
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	title := id
	if it, err := h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id); err == nil {
		title = titleOf(it)
	}
	h.setFlash(w, r, "Progress set to ch. "+number+": "+quoted(title), "")
	seeOther(w, r, readerBack(r))
}

// refusedNumber is the field error for a typed Progress that is no
// chapter number.
func refusedNumber(typed string) fieldError {
	if rs := []rune(typed); len(rs) > maxTyped {
		typed = string(rs[:maxTyped])
	}
	return fieldError{Typed: typed, Problem: "Not saved: type the chapter you have read up to as a number from 0 to 999999 (at most four decimals), such as 12 or 12.5."}
}

// bulk is the library's select toolbar: form "do" (read or remove) and
// "pick", each a card's act path (/library/{site}/{series_id} or
// /works/{id}). Every pick must be a bookmark or Work of the Reader's,
// else nothing is done (404; 400 for a malformed pick). Remove of several
// is one Undo.
func (h *Handler) bulk(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	picks := r.PostForm["pick"]
	do := r.PostFormValue("do")
	if do != "read" && do != "remove" {
		h.errorPage(w, r, http.StatusBadRequest, "Nothing done", "Choose Mark read or Remove for the selected cards.")
		return
	}
	if len(picks) == 0 {
		h.setFlash(w, r, "Nothing selected: tick the cards to act on first.", "")
		seeOther(w, r, readerBack(r))
		return
	}
	if len(picks) > maxBulk {
		h.errorPage(w, r, http.StatusBadRequest, "Nothing done", fmt.Sprintf("Select at most %d cards at once.", maxBulk))
		return
	}
	var series []store.LibraryItem
	var works []store.Work
	seen := map[string]bool{}
	for _, p := range picks {
		if seen[p] {
			continue
		}
		seen[p] = true
		site, id, work, ok := parsePick(p)
		if !ok {
			h.errorPage(w, r, http.StatusBadRequest, "Nothing done", "A selected card is not one of this library's. Nothing was changed.")
			return
		}
		var err error
		if work > 0 {
			var wk store.Work
			if wk, err = h.Store.ReaderWork(r.Context(), v.ReaderID, work, h.Now()); err == nil {
				works = append(works, wk)
			}
		} else {
			var it store.LibraryItem
			if it, err = h.Store.LibraryEntry(r.Context(), v.ReaderID, site, id); err == nil {
				series = append(series, it)
			}
		}
		if errors.Is(err, store.ErrNotFound) {
			h.errorPage(w, r, http.StatusNotFound, "Not in your library",
				"A selected card is not a bookmark of yours (removed meanwhile, or never yours). Nothing was changed.")
			return
		}
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
	}
	n := len(series) + len(works)
	if do == "remove" {
		var keys []store.BookmarkKey
		for _, it := range series {
			keys = append(keys, store.BookmarkKey{Site: it.Site, SeriesID: it.SeriesID})
		}
		for _, wk := range works {
			keys = append(keys, workKeys(wk)...)
		}
		text := fmt.Sprintf("Removed %d stories", n)
		if n == 1 && len(series) == 1 {
			text = "Removed " + quoted(titleOf(series[0]))
		} else if n == 1 {
			text = "Removed " + quoted(works[0].Title)
		}
		h.removeHeld(w, r, keys, text)
		return
	}
	now := h.Now()
	for _, it := range series {
		if _, err := h.Store.MarkRead(r.Context(), v.ReaderID, it.Site, it.SeriesID, now); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	for _, wk := range works {
		if wk.Latest == nil {
			continue
		}
		if err := h.Store.SetWorkProgress(r.Context(), v.ReaderID, wk.ID, wk.Latest.Number, true, now); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	if n == 1 && len(series) == 1 {
		h.setFlash(w, r, readSentence(series[0].LatestNumber, titleOf(series[0])), "")
	} else {
		h.setFlash(w, r, fmt.Sprintf("Marked %d stories read up to their Latest Chapter.", n), "")
	}
	seeOther(w, r, readerBack(r))
}

// workKeys are the members of wk the Reader bookmarks.
func workKeys(wk store.Work) []store.BookmarkKey {
	var out []store.BookmarkKey
	for _, m := range wk.Members {
		if m.Bookmarked {
			out = append(out, store.BookmarkKey{Site: m.Site, SeriesID: m.SeriesID})
		}
	}
	return out
}

// parsePick reads a card's act path: /library/{site}/{series_id} (each
// segment escaped) or /works/{id}.
func parsePick(p string) (site, id string, work int64, ok bool) {
	if rest, found := strings.CutPrefix(p, "/works/"); found {
		n, err := strconv.ParseInt(rest, 10, 64)
		return "", "", n, err == nil && n > 0
	}
	rest, found := strings.CutPrefix(p, "/library/")
	if !found {
		return "", "", 0, false
	}
	a, b, found := strings.Cut(rest, "/")
	if !found || strings.Contains(b, "/") {
		return "", "", 0, false
	}
	site, err1 := url.PathUnescape(a)
	id, err2 := url.PathUnescape(b)
	if err1 != nil || err2 != nil || site == "" || id == "" {
		return "", "", 0, false
	}
	return site, id, 0, true
}
