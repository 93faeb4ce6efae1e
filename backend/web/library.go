package web

import (
	"errors"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/userscript"
)

// PageSize is how many cards one library page shows. Sixty keeps the
// first screen and the whole page light on a phone while a Reader with a
// few hundred Series pages through a handful.
const PageSize = 60

// The library's sorts (store.LibrarySortNew and the others), in the Sort
// select's order, each with its label; the default puts New Chapters
// first.
var librarySorts = []struct{ Value, Label string }{
	{store.LibrarySortNew, "New first"},
	{store.LibrarySortUnread, "Most unread"},
	{store.LibrarySortRead, "Last read"},
	{store.LibrarySortUpdated, "Recently updated"},
	{store.LibrarySortTitle, "Title"},
	{store.LibrarySortState, "Reading state"},
}

// viewCookie remembers the list or grid choice (not a secret, not a session).
const viewCookie = "mb_view"

// libraryView is the Reader's library page.
type libraryView struct {
	// The Sort select's options (librarySorts); the empty library's ways
	// in: the userscript's path, and whether the server runs phone sync
	// (its card on the settings page).
	Sorts      []struct{ Value, Label string }
	Userscript string
	PhoneSync  bool

	Items    []libraryItem
	Total    int // cards before the filters (a Work is one card)
	Matched  int // cards the filters keep, over every page
	NewCount int
	Sites    []string // the Sites the Reader has bookmarks on, for the filter
	Site     string   // the Site filter ("" for all)
	Query    string   // the text filter
	OnlyNew  bool     // the "has New" filter
	Sort     string   // a store.LibrarySort (librarySorts)
	State    string   // the reading-state filter ("" for all; states.go)
	States   []string // the six states, for the filter
	Grid     bool     // the grid view, else the list
	Page     int      // 1-based
	Pages    int      // at least 1
	First    int      // the 1-based position of the page's first card
	Last     int      // and of its last
	Prev     string   // the previous page's URL, "" on the first
	Next     string   // the next page's URL, "" on the last
	ListURL  string   // this view as a list, and as a grid
	GridURL  string
	Added    *importView // the answers to the last "Add a Series", from ?added=
	Back     string      // this page's address, the acts' "back" (flash.go's safeBack)
}

// libraryItem is one bookmark as a card shows it, every value worked out
// here so the template only places them.
type libraryItem struct {
	Site, SeriesID, Title, URL string
	CoverPath                  string       // our /covers/ path, "" when no cover is stored
	ActionPath                 string       // /library/{site}/{series_id}, for the forms
	PagePath                   string       // /series/{site}/{series_id}, the Series page; /works/{id} for a Work
	WorkID                     string       // the Work's id, "" for a Series in no Work
	Chips                      []memberChip // a Work's members (works_cards.go)
	LatestSite                 string       // the Site showing the Latest (a Work's member that has it)
	Initial                    string       // shown when no cover is stored
	New                        bool
	Unread                     string // "3 new", or "new" when the numbers do not count
	// Count and CountWords are the cover's badge: "3" and " new chapters"
	// (a screen reader reads "3 new chapters"), or "new" and " chapters".
	Count, CountWords string
	// Refusing is "{Site} refuses us since 3 h ago" when the Lane has not
	// read the card's Series yet and its Site refuses our reads (the
	// Lane's refusal backoff is open): said instead of "checking…".
	Refusing                   string
	LatestNumber, LatestTitle  string // LatestTitle is "" when it only repeats the number
	LatestURL                  string
	ContinueURL                string // the next chapter after Progress, else the Latest
	ContinueNumber             string
	ProgressNumber             string
	Checking                   bool   // the Lane has not read the Series yet
	Failing                    string // the date since which the Site could not be read
	Appeared                   string // how long ago the Latest Chapter appeared
	CanMark                    bool   // a Latest Chapter is known and is past the Progress
	AddedByRead                bool   // a reported read created the bookmark, not the Reader
	NotifyMode                 string // each, off or pile (notices.go)
	NotifyPile, NotifyPileDays int
	State                      string // the Reader's reading state (states.go)
	Status                     string // the story's status: releasing, completed, hiatus, cancelled, unknown
	FinalChapter               string // "" when none is known
	// The time line (timeline.go): Fresh is "checked … · next ≤ …" ("" before
	// the first read); StatusLine the story's status as the time line
	// names it ("" when unknown); Expect the next chapter's window; Late,
	// past twice the interval, why nothing came (then Expect is ""), and
	// LateSince since when its Site fails.
	Fresh, StatusLine, Expect, Late, LateSince string
	// ContinuePick: we never saw the next chapter's page, so ContinueURL
	// is the Series' page on ContinueSite and ContinueNumber the chapter
	// to pick there.
	ContinuePick bool
	ContinueSite string
}

// library renders one page of the session's Reader's cards: New Chapters
// first unless another sort is asked, filtered by ?site=, ?q= and ?new=1,
// PageSize cards a page (?page=). The store sorts, filters and pages
// (store.LibraryPage); the page reads the Works of the cards it shows.
// ?view=grid or list is kept in a cookie so the choice holds on the next
// visit.
func (h *Handler) library(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	lv := &libraryView{Site: q.Get("site"), Query: strings.TrimSpace(q.Get("q")),
		OnlyNew: q.Get("new") == "1", Sort: q.Get("sort"), Sorts: librarySorts, Added: h.addedView(r), States: store.ReadingStates}
	if !store.ValidLibrarySort(lv.Sort) {
		lv.Sort = store.LibrarySortNew
	}
	if st := q.Get("state"); store.ValidState(st) {
		lv.State = st
	}
	lv.Grid = h.gridView(w, r)
	lv.Back = safeBack(r.URL.RequestURI())
	asked, _ := strconv.Atoi(q.Get("page"))
	lp, err := h.Store.LibraryPage(r.Context(), v.ReaderID, store.LibraryQuery{Site: lv.Site, Text: lv.Query,
		OnlyNew: lv.OnlyNew, Sort: lv.Sort, State: lv.State, Page: asked, PerPage: PageSize})
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	cards, err := h.pageCards(r, v.ReaderID, lp.Cards)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	lv.Total, lv.Matched, lv.NewCount = lp.Total, lp.Matched, lp.NewCount
	for _, s := range h.Sites.All() {
		if slices.Contains(lp.Sites, s.Name) {
			lv.Sites = append(lv.Sites, s.Name)
		}
	}
	lv.paginate(q, lp.Page, len(lp.Cards))
	lv.Userscript, lv.PhoneSync = userscript.Path, h.SyncKeys != nil
	now := h.readerNow(r)
	var unread []string // the Sites of the cards whose Series no Lane has read yet
	for _, c := range cards {
		li := c.view(now)
		k, site, status := c.clock()
		h.withTime(&li, k, site, status, now)
		if li.Checking && li.LatestNumber == "" && !slices.Contains(unread, li.Site) {
			unread = append(unread, li.Site)
		}
		lv.Items = append(lv.Items, li)
	}
	// Of those, the ones whose Site refuses us say so instead of "checking…".
	refusing, err := h.refusals(r.Context(), unread, now)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	for i := range lv.Items {
		li := &lv.Items[i]
		if says := refusing[li.Site]; says != "" && li.Checking && li.LatestNumber == "" {
			li.Refusing = says
		}
	}
	h.render(w, r, http.StatusOK, "library", page{Title: "Library", V: v, Lib: lv})
}

// gridView reads ?view= (and remembers it) or else the cookie.
func (h *Handler) gridView(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Query().Get("view") {
	case "grid", "list":
		view := r.URL.Query().Get("view")
		http.SetCookie(w, &http.Cookie{Name: viewCookie, Value: view, Path: "/", MaxAge: 365 * 24 * 3600,
			HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
		return view == "grid"
	}
	c, err := r.Cookie(viewCookie)
	return err == nil && c.Value == "grid"
}

// paginate sets the page's place among lv.Matched cards (the store's page
// number, already within 1..last, and the cards shown on it) and the
// links around it.
func (lv *libraryView) paginate(q url.Values, page, shown int) {
	lv.Pages = max(1, (lv.Matched+PageSize-1)/PageSize)
	lv.Page = page
	if from := (lv.Page - 1) * PageSize; shown > 0 {
		lv.First, lv.Last = from+1, from+shown
	}
	link := func(set map[string]string) string {
		u := url.Values{}
		for _, k := range []string{"site", "q", "new", "sort", "state"} {
			if v := q.Get(k); v != "" {
				u.Set(k, v)
			}
		}
		if lv.Page > 1 {
			u.Set("page", strconv.Itoa(lv.Page))
		}
		for k, v := range set {
			if v == "" {
				u.Del(k)
			} else {
				u.Set(k, v)
			}
		}
		if len(u) == 0 {
			return "/"
		}
		return "/?" + u.Encode()
	}
	if lv.Page > 1 {
		prev := ""
		if lv.Page > 2 {
			prev = strconv.Itoa(lv.Page - 1)
		}
		lv.Prev = link(map[string]string{"page": prev})
	}
	if lv.Page < lv.Pages {
		lv.Next = link(map[string]string{"page": strconv.Itoa(lv.Page + 1)})
	}
	lv.ListURL = link(map[string]string{"view": "list"})
	lv.GridURL = link(map[string]string{"view": "grid"})
}

// cardOf is one bookmark as its card shows it.
func cardOf(it store.LibraryItem, now time.Time) libraryItem {
	path := url.PathEscape(it.Site) + "/" + url.PathEscape(it.SeriesID)
	li := libraryItem{
		Site: it.Site, SeriesID: it.SeriesID, Title: it.Title, URL: siteLink(it.URL),
		ActionPath: "/library/" + path, PagePath: "/series/" + path,
		New: it.New, LatestNumber: it.LatestNumber, LatestTitle: chapterTitle(it.LatestTitle, it.LatestNumber),
		LatestURL: siteLink(it.LatestURL), LatestSite: it.Site, ProgressNumber: it.ProgressNumber, Checking: it.CheckedAt == nil,
		State: it.State, Status: it.Status, FinalChapter: it.FinalChapter,
	}
	if it.HasCover {
		li.CoverPath = "/covers/" + path
	}
	li.Title, li.Initial = cardTitle(it.Title, it.GivenTitle, it.URL, it.Site)
	if it.FailingSince != nil {
		li.Failing = it.FailingSince.UTC().Format("2 Jan 2006 15:04 UTC")
	}
	if it.LatestSeenAt != nil {
		li.Appeared = ago(now, *it.LatestSeenAt)
	}
	if it.New {
		li.setUnread(it.LatestNumber, it.ProgressNumber)
		li.setContinue(store.ContinueAfter(it.ProgressNumber, it.ContinueNumber, seenLink(it.ContinueURL), it.URL), it.Site)
	}
	li.CanMark = it.LatestNumber != "" && (it.New || it.ProgressNumber == "")
	li.AddedByRead = it.AddedBy == "read"
	li.NotifyMode, li.NotifyPile, li.NotifyPileDays = it.NotifyMode, it.NotifyPile, it.NotifyPileDays
	return li
}

// setUnread sets the card's unread count from its Latest and Progress:
// Unread ("3 new") and the cover's badge (Count, CountWords).
func (li *libraryItem) setUnread(latest, progress string) {
	li.Unread = unread(latest, progress)
	n, ok := strings.CutSuffix(li.Unread, " new")
	switch {
	case !ok:
		li.Count, li.CountWords = "new", " chapters"
	case n == "1":
		li.Count, li.CountWords = n, " new chapter"
	default:
		li.Count, li.CountWords = n, " new chapters"
	}
}

// unread counts the chapters between Progress and Latest when both are
// whole numbers ("3 new"); with a fraction on either side (12.5) or a gap
// too wide to be a count the card says only "new".
func unread(latest, progress string) string {
	l, err1 := strconv.ParseFloat(latest, 64)
	p, err2 := strconv.ParseFloat(progress, 64)
	if err1 != nil || err2 != nil || l != math.Trunc(l) || p != math.Trunc(p) || l-p < 1 || l-p > 999 {
		return "new"
	}
	return strconv.Itoa(int(l-p)) + " new"
}

// chapterTitle is a chapter's title unless it only repeats its number
// ("Chapter 280", "Ch. 280", "280"), which the card already shows.
func chapterTitle(title, number string) string {
	t := strings.ToLower(strings.TrimSpace(title))
	for _, p := range []string{"chapter", "chap.", "ch.", "ch", "#"} {
		t = strings.TrimSpace(strings.TrimPrefix(t, p))
	}
	t = strings.TrimRight(t, " .:-")
	if t == "" || t == strings.ToLower(number) {
		return ""
	}
	if n, ok := sites.ParseNumber(t); ok && n == number {
		return ""
	}
	return strings.TrimSpace(title)
}

// bookmarkActFailed answers a bookmark act's error (the not-in-your-library
// page, or the unavailable one) and reports whether there was one.
func (h *Handler) bookmarkActFailed(w http.ResponseWriter, r *http.Request, err error) bool {
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You have no bookmark for that Series.")
	case err != nil:
		h.unavailable(w, r, err)
	default:
		return false
	}
	return true
}

// seenLink is a chapter page a Lane saw, "" when it is not a Site's web
// page (siteLink): a chapter whose page we cannot link is one we never
// saw, and Continue names it on the Series page instead.
func seenLink(u string) string {
	if siteLink(u) == "#" {
		return ""
	}
	return u
}

// setContinue sets the card's Continue (store.ContinueAfter), on Site
// site; a Series page that is not a Site's web page leads to nothing.
func (li *libraryItem) setContinue(c store.Continue, site string) {
	li.ContinueNumber, li.ContinueURL, li.ContinuePick, li.ContinueSite = c.Number, siteLink(c.URL), c.Pick, site
	if li.ContinueURL == "#" {
		li.ContinueURL = ""
	}
}
