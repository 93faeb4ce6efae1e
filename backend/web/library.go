package web

import (
	"bufio"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"mangabookmark/backend/store"
)

// libraryView is the Reader's library page.
type libraryView struct {
	Items    []libraryItem
	Total    int // bookmarks before the filters
	NewCount int
	Sites    []string    // the Sites the Reader has bookmarks on, for the filter
	Site     string      // the Site filter ("" for all)
	Query    string      // the text filter
	Added    *importView // the answers to the last "Add a Series", from ?added=
}

// libraryItem is one bookmark as the page shows it. Its fields are flat
// and precomputed: html/template looks fields up by reflection, and the
// lookups through embedded structs dominated a 2000-item page.
type libraryItem struct {
	Site, SeriesID, Title, URL string
	CoverPath                  string // our /covers/ path, "" when no cover is stored
	ActionPath                 string // /library/{site}/{series_id}, for the forms
	Initial                    string // shown when no cover is stored
	New                        bool
	LatestNumber, LatestTitle  string
	LatestURL                  string
	ProgressNumber             string
	Checking                   bool   // the Lane has not read the Series yet
	Failing                    string // the date since which the Site could not be read
	Appeared                   string // how long ago the Latest Chapter appeared
	CanMark                    bool   // a Latest Chapter is known and is past the Progress
	AddedByRead                bool   // a reported read created the bookmark, not the Reader
	NotifyMode                 string // each, off or pile (notices.go)
	NotifyPile, NotifyPileDays int
	SearchKey                  string // lower-cased title, Site and id for the text filter
}

// library renders the session's Reader's bookmarks: New Chapters first,
// then by Latest Chapter date, filtered by ?site= and ?q=.
func (h *Handler) library(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	list, err := h.Store.Library(r.Context(), v.ReaderID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	q := r.URL.Query()
	lv := &libraryView{Total: len(list), Site: q.Get("site"), Query: strings.TrimSpace(q.Get("q")), Added: h.addedView(r)}
	needle := strings.ToLower(lv.Query)
	seen := map[string]bool{}
	now := h.Now()
	lv.Items = make([]libraryItem, 0, len(list))
	for _, it := range list {
		seen[it.Site] = true
		if it.New {
			lv.NewCount++
		}
		key := strings.ToLower(it.Title + " " + it.Site + " " + it.SeriesID)
		if (lv.Site != "" && it.Site != lv.Site) || (needle != "" && !strings.Contains(key, needle)) {
			continue
		}
		path := url.PathEscape(it.Site) + "/" + url.PathEscape(it.SeriesID)
		li := libraryItem{
			Site: it.Site, SeriesID: it.SeriesID, Title: it.Title, URL: it.URL, ActionPath: "/library/" + path,
			New: it.New, LatestNumber: it.LatestNumber, LatestTitle: it.LatestTitle, LatestURL: it.LatestURL,
			ProgressNumber: it.ProgressNumber, Checking: it.CheckedAt == nil, SearchKey: key,
		}
		if it.HasCover {
			li.CoverPath = "/covers/" + path
		}
		if li.Title == "" {
			li.Title = it.SeriesID
		}
		li.Initial = strings.ToUpper(string([]rune(li.Title + "?")[:1]))
		if it.FailingSince != nil {
			li.Failing = it.FailingSince.UTC().Format("2 Jan 2006 15:04 UTC")
		}
		if it.LatestSeenAt != nil {
			li.Appeared = ago(now, *it.LatestSeenAt)
		}
		li.CanMark = it.LatestNumber != "" && (it.New || it.ProgressNumber == "")
		li.AddedByRead = it.AddedBy == "read"
		li.NotifyMode, li.NotifyPile, li.NotifyPileDays = it.NotifyMode, it.NotifyPile, it.NotifyPileDays
		lv.Items = append(lv.Items, li)
	}
	for _, s := range h.Sites.All() {
		if seen[s.Name] {
			lv.Sites = append(lv.Sites, s.Name)
		}
	}
	p := page{Title: "Library", V: v, Lib: lv}
	h.stream(w, r, "library", func(b *bufio.Writer) error {
		if err := executeParts(b, "library", p, "top", "content"); err != nil {
			return err
		}
		writeItems(b, lv.Items, v.CSRF)
		return executeParts(b, "library", p, "content_end", "bottom")
	})
}

// markRead sets the Progress of a bookmarked Series to its Latest Chapter.
func (h *Handler) markRead(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	_, err := h.Store.MarkRead(r.Context(), v.ReaderID, r.PathValue("site"), r.PathValue("series_id"), h.Now())
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You have no bookmark for that Series.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/")
}

// remove deletes a bookmark (the Series goes with its last bookmark).
func (h *Handler) remove(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	err := h.Store.RemoveBookmark(r.Context(), v.ReaderID, r.PathValue("site"), r.PathValue("series_id"))
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You have no bookmark for that Series.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/")
}
