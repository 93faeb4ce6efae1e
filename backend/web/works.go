package web

import (
	"cmp"
	"errors"
	"math/big"
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
	Field       fieldError // a refused Progress value, beside its field
}

// workMemberRow is one member in the Work page's table.
type workMemberRow struct {
	Site, SeriesID, Title, URL string
	Latest, LatestURL          string // the member's own number and chapter link
	Offset                     string
	LinkedBy                   string       // how it joined: "id: al", "Readers", "your link (only you)"
	Failing                    string       // "not_found since …", "" when not failing for a day
	Drifted                    string       // since when its numbers drifted, "" when not (or no longer in the Reader's numbers)
	Refusing                   string       // "{Site} refuses us since …" while its Site's Lane backs off a refusal, else ""
	Advice                     *driftAdvice // the offset that ends the drift, nil when none is needed
	SeriesPath                 string       // the Series page, "" when the Reader does not bookmark it
	ActPath                    string       // /works/{id}/members/{site}/{series_id}
	Input                      string       // the offset field's id
	Reset                      string       // a shared offset migration 0018 set back to 0 ("+100"), "" for none
}

// driftAdvice is the Work page's advice for a drifted member: the offset
// to set on it, with its sign, so its Latest meets the other members' in
// the Work's numbers. Value is what the one-click form posts ("-11"),
// Shown how the advice writes it ("−11", "+3").
type driftAdvice struct {
	Value, Shown string
	Member       string // "site/series_id"
	Latest       string // the member's Latest in the Work's numbers now
	Others       string // the other working members' highest
	Ahead        string // by how many chapters it stands above them
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
func (h *Handler) showWork(w http.ResponseWriter, r *http.Request, status int, wk store.Work, flash, problem string, field ...fieldError) {
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
	if len(field) > 0 {
		wv.Field = field[0]
	}
	k, ksite, kstatus := c.clock()
	h.withTime(&wv.Item, k, ksite, kstatus, now)
	resets, err := h.Store.OffsetResets(ctx, wk.ID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	// A Site that refuses us says so: on the card's Latest while no
	// member has been read (instead of "checking…"), and on its members.
	var sites []string
	for _, m := range wk.Members {
		if !slices.Contains(sites, m.Site) {
			sites = append(sites, m.Site)
		}
	}
	refusing, err := h.refusals(ctx, sites, now)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if wv.Item.Checking && wv.Item.LatestNumber == "" {
		var says []string
		for _, s := range sites {
			if refusing[s] != "" {
				says = append(says, refusing[s])
			}
		}
		wv.Item.Refusing = strings.Join(says, "; ")
	}
	members := map[[2]string]bool{}
	given := map[[2]string]string{} // the Reader's own titles of the members they bookmark
	for _, it := range items {
		given[[2]string{it.Site, it.SeriesID}] = it.GivenTitle
	}
	for i, m := range wk.Members {
		members[[2]string{m.Site, m.SeriesID}] = true
		row := workMemberRow{Site: m.Site, SeriesID: m.SeriesID, Title: m.Title, URL: siteLink(m.URL),
			Latest: m.LatestNumber, LatestURL: siteLink(m.LatestURL), Offset: m.Offset, LinkedBy: linkedBy(m),
			ActPath: wv.Path + "/members/" + url.PathEscape(m.Site) + "/" + url.PathEscape(m.SeriesID), Input: "offset-" + strconv.Itoa(i)}
		if row.Title == "" {
			row.Title = cmp.Or(given[[2]string{m.Site, m.SeriesID}], m.SeriesID)
		}
		if m.FailingSince != nil {
			row.Failing = m.FailingOutcome + " since " + m.FailingSince.UTC().Format("2 Jan 2006 15:04 UTC")
		}
		row.Refusing = refusing[m.Site]
		if m.DriftSince != nil {
			// Drift is judged on the shared offsets; the Reader sees their
			// own: advise only while their numbers still drift, so the
			// advice goes once they set the offset.
			if row.Advice = adviseOffset(wk.Members, i); row.Advice != nil {
				row.Drifted = ago(now, *m.DriftSince)
			}
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

// adviseOffset is the advice for member i of ms, in the Reader's numbers
// (each member's Latest plus the Reader's offset on it): when its Latest
// stands more than store.DriftMargin above every other working member's
// (failing ones aside, as RecordOK judges drift), the offset that brings
// it level with their highest. Nil when it does not, or when a number is
// unknown or the offset would be one ParseOffset refuses.
func adviseOffset(ms []store.WorkMember, i int) *driftAdvice {
	m := ms[i]
	latest, ok1 := new(big.Rat).SetString(m.LatestNumber)
	off, ok2 := new(big.Rat).SetString(m.Offset)
	if !ok1 || !ok2 {
		return nil
	}
	var others *big.Rat
	for j, o := range ms {
		if j == i || o.FailingSince != nil {
			continue
		}
		l, ok1 := new(big.Rat).SetString(o.LatestNumber)
		oo, ok2 := new(big.Rat).SetString(o.Offset)
		if !ok1 || !ok2 {
			continue
		}
		if w := l.Add(l, oo); others == nil || w.Cmp(others) > 0 {
			others = w
		}
	}
	if others == nil {
		return nil
	}
	mine := new(big.Rat).Add(latest, off)
	ahead := new(big.Rat).Sub(mine, others)
	if ahead.Cmp(big.NewRat(store.DriftMargin, 1)) <= 0 {
		return nil
	}
	want := new(big.Rat).Sub(others, latest)
	v := decimal(want)
	if _, err := store.ParseOffset(v); err != nil {
		return nil
	}
	shown := signedOffset(v)
	if v == "0" {
		shown = "0"
	} else if strings.HasPrefix(shown, "-") {
		shown = "−" + shown[1:]
	}
	return &driftAdvice{Value: v, Shown: shown, Member: m.Site + "/" + m.SeriesID,
		Latest: decimal(mine), Others: decimal(others), Ahead: decimal(ahead)}
}

// decimal writes r as a short decimal: "12", "-2.5" (chapter numbers and
// offsets have at most four decimals).
func decimal(r *big.Rat) string {
	s := r.FloatString(4)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
