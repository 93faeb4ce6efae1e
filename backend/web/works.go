package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// The Work page (/works/{id}): one story on several Sites, with every
// control its library card keeps one step away, and the acts of the Works
// API (docs/api.md "Works") as forms: a member's offset, unlinking a
// member, linking a suggestion, naming an external id. Each act posts,
// then redirects back with a flash (?done=); a refused value answers 400
// with the page and the reason, and nothing changes.

// workChapters is how many of the members' latest Chapter Events a Work
// page lists.
const workChapters = 10

// workView is a Work page.
type workView struct {
	Item        libraryItem // the Work's card: title, cover, Latest, Progress, Continue
	Work        store.Work  // as the store reads it: the follow-instead offer's partial draws from it
	Path        string      // /works/{id}, the forms' "back"
	Members     []workMemberRow
	IDs         []idRow
	Namers      []idNamer // the members the Reader bookmarks, each with its id form
	Suggestions []suggestionRow
	Chapters    []seriesChapter
	Notify      store.LibraryItem // the first bookmarked member's notice settings
	Kinds       []string          // the external id kinds, for the "name an id" forms
	Flash       string
	Error       string
}

// workMemberRow is one member in the Work page's table.
type workMemberRow struct {
	Site, SeriesID, Title, URL string
	Latest, LatestURL          string // the member's own number and chapter link
	Offset                     string
	LinkedBy                   string // how it joined: "id: al", "Readers", "your link (only you)"
	Failing                    string // "not_found since …", "" when not failing for a day
	Drifted                    string // since when its numbers drifted, "" when not
	SeriesPath                 string // the Series page, "" when the Reader does not bookmark it
	ActPath                    string // /works/{id}/members/{site}/{series_id}
	Input                      string // the offset field's id
}

// idRow is one external id of a member.
type idRow struct {
	Site, Kind, Value, Source string
}

// idNamer is a bookmarked Series with its "name an id" form.
type idNamer struct {
	Site, SeriesID, Path, Input string
}

// suggestionRow is a Series whose titles look like a member's: shown with
// its Latest and when it was last seen so the Reader can judge, and a
// "same story" form that links it to the member it looks like.
type suggestionRow struct {
	Site, SeriesID, Title, URL string
	Latest, LatestURL, Seen    string
	Reason                     string
	LinkPath                   string // /series/{member}/link
}

// idKinds are the external id kinds a Reader may name (store's kinds).
var idKinds = []string{"al", "mal", "mu", "kt", "md", "mb"}

// flashes are the messages an act's redirect may ask for (?done=): a
// fixed set, so nothing in the URL is ever shown as text.
var flashes = map[string]string{
	"read":     "Marked read up to the Latest Chapter.",
	"progress": "Progress saved on every member you bookmark.",
	"notify":   "Notice settings saved.",
	"offset":   "Offset saved: the Work's numbers are recomputed.",
	"unlink":   "Member unlinked: external ids will not link it to this Work again.",
	"linked":   "Linked: these Series are one story in your library.",
	"id":       "External id saved.",
}

// worksRoutes registers the Work page, its acts and the Series acts of
// the Works API.
func (h *Handler) worksRoutes() {
	h.handle("GET /works/{id}", h.session(h.workPage))
	h.handle("POST /works/{id}/read", h.post(h.workRead))
	h.handle("POST /works/{id}/progress", h.post(h.workProgress))
	h.handle("POST /works/{id}/notify", h.post(h.workNotify))
	h.handle("POST /works/{id}/remove", h.post(h.workRemove))
	h.handle("POST /works/{id}/members/{site}/{series_id}/offset", h.post(h.memberOffset))
	h.handle("POST /works/{id}/members/{site}/{series_id}/unlink", h.post(h.memberUnlink))
	h.handle("POST /series/{site}/{series_id}/link", h.post(h.seriesLink))
	h.handle("POST /series/{site}/{series_id}/ids", h.post(h.seriesNameID))
}

// heldWork reads {id} and the Work as the session's Reader sees it; a
// malformed id or a Work holding none of their bookmarks is the 404 page.
func (h *Handler) heldWork(w http.ResponseWriter, r *http.Request) (store.Work, bool) {
	v := viewerFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err == nil && id > 0 {
		var wk store.Work
		wk, err = h.Store.ReaderWork(r.Context(), v.ReaderID, id, h.Now())
		if err == nil {
			return wk, true
		}
		if !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return store.Work{}, false
		}
	}
	h.errorPage(w, r, http.StatusNotFound, "Not in your library", "No Work of yours has that id: it holds none of your bookmarks.")
	return store.Work{}, false
}

func (h *Handler) workPage(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	h.showWork(w, r, http.StatusOK, wk, flashes[r.URL.Query().Get("done")], "")
}

// showWork renders a Work page with a flash or an error.
func (h *Handler) showWork(w http.ResponseWriter, r *http.Request, status int, wk store.Work, flash, problem string) {
	v := viewerFrom(r.Context())
	ctx := r.Context()
	items, err := h.Store.LibraryOfWork(ctx, v.ReaderID, wk.ID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if len(items) == 0 { // a hand link of a Series no longer bookmarked
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "No Work of yours has that id: it holds none of your bookmarks.")
		return
	}
	now := h.Now()
	c := libraryCard{items: items, work: &wk}
	wv := &workView{Item: workCardOf(c, now), Work: wk, Flash: flash, Error: problem, Notify: c.first(), Kinds: idKinds}
	wv.Path = wv.Item.PagePath
	members := map[[2]string]bool{}
	for i, m := range wk.Members {
		members[[2]string{m.Site, m.SeriesID}] = true
		row := workMemberRow{Site: m.Site, SeriesID: m.SeriesID, Title: m.Title, URL: siteLink(m.URL),
			Latest: m.LatestNumber, LatestURL: siteLink(m.LatestURL), Offset: m.Offset, LinkedBy: linkedBy(m),
			ActPath: wv.Path + "/members/" + url.PathEscape(m.Site) + "/" + url.PathEscape(m.SeriesID), Input: "offset-" + strconv.Itoa(i)}
		if row.Title == "" {
			row.Title = m.SeriesID
		}
		if m.FailingSince != nil {
			row.Failing = m.FailingOutcome + " since " + m.FailingSince.UTC().Format("2 Jan 2006 15:04 UTC")
		}
		if m.DriftSince != nil {
			row.Drifted = ago(now, *m.DriftSince)
		}
		if m.Bookmarked {
			row.SeriesPath = "/series/" + url.PathEscape(m.Site) + "/" + url.PathEscape(m.SeriesID)
		}
		wv.Members = append(wv.Members, row)
		ids, err := h.Store.SeriesExternalIDs(ctx, v.ReaderID, m.Site, m.SeriesID)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		for _, id := range ids {
			wv.IDs = append(wv.IDs, idRow{Site: m.Site, Kind: id.Kind, Value: id.Value, Source: id.Source})
		}
		evs, err := h.Store.SeriesChapters(ctx, m.Site, m.SeriesID, workChapters)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		for _, e := range evs {
			wv.Chapters = append(wv.Chapters, seriesChapter{Number: e.Number, Title: chapterTitle(e.ChapterTitle, e.Number),
				URL: siteLink(e.URL), Seen: ago(now, e.SeenAt), Site: m.Site, at: e.SeenAt})
		}
	}
	slices.SortStableFunc(wv.Chapters, func(a, b seriesChapter) int { return b.at.Compare(a.at) })
	wv.Chapters = wv.Chapters[:min(len(wv.Chapters), workChapters)]
	seen := map[[2]string]bool{}
	for i, it := range items {
		path := "/series/" + url.PathEscape(it.Site) + "/" + url.PathEscape(it.SeriesID)
		wv.Namers = append(wv.Namers, idNamer{Site: it.Site, SeriesID: it.SeriesID, Path: path, Input: "id-" + strconv.Itoa(i)})
		card, err := h.Store.ReaderSeries(ctx, v.ReaderID, it.Site, it.SeriesID)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		for _, g := range card.Suggestions {
			k := [2]string{g.Site, g.SeriesID}
			if members[k] || seen[k] {
				continue
			}
			seen[k] = true
			wv.Suggestions = append(wv.Suggestions, suggestionOf(g, now, path))
		}
	}
	h.render(w, r, status, "work", page{Title: wv.Item.Title, V: v, Work: wv})
}

// linkedBy says in words how a member joined its Work.
func linkedBy(m store.WorkMember) string {
	switch {
	case m.Pending:
		return "your link (only you, until another Reader links it too)"
	case strings.HasPrefix(m.LinkedBy, "id:"):
		return "shared id " + strings.TrimPrefix(m.LinkedBy, "id:")
	case m.LinkedBy == "reader":
		return "Readers' links"
	}
	return m.LinkedBy
}

// workRead marks the Work read up to its Latest, on every member the
// Reader bookmarks (forward only).
func (h *Handler) workRead(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	if wk.Latest != nil {
		err := h.Store.SetWorkProgress(r.Context(), viewerFrom(r.Context()).ReaderID, wk.ID, wk.Latest.Number, true, h.Now())
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	seeOther(w, r, withFlash(readerBack(r), "read"))
}

// workProgress is the Work's Progress correction: exactly the number
// given, lower or higher, carried to every member the Reader bookmarks.
func (h *Handler) workProgress(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	number, ok := sites.ParseNumber(r.PostFormValue("number"))
	if !ok {
		h.showWork(w, r, http.StatusBadRequest, wk, "", "Not a chapter number: type the chapter you have read up to, such as 12 or 12.5. Nothing was saved.")
		return
	}
	err := h.Store.SetWorkProgress(r.Context(), viewerFrom(r.Context()).ReaderID, wk.ID, number, false, h.Now())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, withFlash(workPath(wk), "progress"))
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

// workRemove removes every bookmark of the Reader's in the Work.
func (h *Handler) workRemove(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	v := viewerFrom(r.Context())
	for _, m := range wk.Members {
		if !m.Bookmarked {
			continue
		}
		if err := h.Store.RemoveBookmark(r.Context(), v.ReaderID, m.Site, m.SeriesID); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.unavailable(w, r, err)
			return
		}
	}
	seeOther(w, r, "/")
}

// memberOffset sets a member's offset, as PUT /api/works/{id}/members/….
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
	err = h.Store.SetMemberOffset(r.Context(), wk.ID, r.PathValue("site"), r.PathValue("series_id"), off)
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

// memberUnlink takes a member out of the Work for good, as DELETE
// /api/works/{id}/members/…; it returns to the Work while it still holds
// a bookmark of the Reader's, else to the Series page or the library.
func (h *Handler) memberUnlink(w http.ResponseWriter, r *http.Request) {
	wk, ok := h.heldWork(w, r)
	if !ok {
		return
	}
	v := viewerFrom(r.Context())
	site, id := r.PathValue("site"), r.PathValue("series_id")
	err := h.Store.UnlinkMember(r.Context(), v.ReaderID, wk.ID, site, id)
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
	seeOther(w, r, withFlash(back, "unlink"))
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

// suggestionOf is a suggestion as the pages show it, linked from path.
func suggestionOf(g store.Suggestion, now time.Time, path string) suggestionRow {
	s := suggestionRow{Site: g.Site, SeriesID: g.SeriesID, Title: g.Title, URL: siteLink(g.URL), Latest: g.LatestNumber,
		LatestURL: siteLink(g.LatestURL), LinkPath: path + "/link",
		Reason: "titles look like “" + g.Matched + "” (" + strconv.Itoa(int(g.Score*100+0.5)) + "% alike)"}
	if g.SharedID != "" {
		s.Reason = "carries the same id (" + g.SharedID + ") but is not linked"
	}
	if s.Title == "" {
		s.Title = g.SeriesID
	}
	if g.LatestSeenAt != nil {
		s.Seen = ago(now, *g.LatestSeenAt)
	}
	return s
}

// workPath is a Work's page.
func workPath(wk store.Work) string { return "/works/" + strconv.FormatInt(wk.ID, 10) }

// withFlash adds ?done=code to a local path.
func withFlash(path, code string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "done=" + code
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
