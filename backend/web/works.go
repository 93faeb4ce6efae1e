package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

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
	Reset                      string // a shared offset migration 0018 set back to 0 ("+100"), "" for none
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
var idKinds = []string{"al", "mal", "mu", "mu_legacy", "kt", "md", "mb"}

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
	now := h.readerNow(r)
	c := libraryCard{items: items, work: &wk}
	wv := &workView{Item: workCardOf(c, now), Work: wk, Flash: flash, Error: problem, Notify: c.first(), Kinds: idKinds}
	wv.Path = wv.Item.PagePath
	k, ksite, kstatus := c.clock()
	h.withTime(&wv.Item, k, ksite, kstatus, now)
	resets, err := h.Store.OffsetResets(ctx, wk.ID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
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
		for _, o := range resets {
			if o.Site == m.Site && o.SeriesID == m.SeriesID {
				row.Reset = signedOffset(o.Offset)
			}
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

// signedOffset writes an offset with its sign: "+100", "-2.5".
func signedOffset(off string) string {
	if strings.HasPrefix(off, "-") {
		return off
	}
	return "+" + off
}
