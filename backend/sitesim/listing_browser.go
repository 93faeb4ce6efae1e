package sitesim

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Listing page sizes of the browser Sites. Kagane's is the size the
// request asks (keiyoushi 35, FMD2 100), up to this bound; natomanga's is
// not published, so it is a stand-in.
const (
	KaganeListingMax      = 100
	NatomangaListingSize  = 24
	natomangaListingPages = 50
)

// serveBrowserListing answers the browser Sites' listings in their real
// shapes, behind the same failure modes (and challenge) as their pages:
// Kagane's home page (the page its listing is fetched from) and POST
// /api/v2/search/series (keiyoushi's SearchDto, the Series most recently
// updated first), natomanga's /manga-list/latest-manga?page=N (MangaBox
// cards, one per Series, most recently updated first), and Comix's
// /browse shell (no items in its initial-data). The listing's own
// behaviour (SetListing) wins; without one the Site's applies. It reports
// whether the request was one of these.
func (s *Sim) serveBrowserListing(site string, w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case site == Kagane && path == "" && r.Method == http.MethodGet:
		if s.misbehave(w, r, s.browserListingBehavior(site, false), kindHTML) {
			return true
		}
		writeHTML(w, http.StatusOK, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Kagane</title></head>
<body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>`)
		return true
	case site == Kagane && path == "/api/v2/search/series":
		if r.Method != http.MethodPost {
			writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"detail": "Method Not Allowed"})
			return true
		}
		b := s.browserListingBehavior(site, true)
		if s.misbehave(w, r, b, kindJSON) {
			return true
		}
		q := r.URL.Query()
		page, perr := strconv.Atoi(q.Get("page"))
		size, serr := strconv.Atoi(q.Get("size"))
		if perr != nil || serr != nil || page < 0 || size < 1 || size > KaganeListingMax || q.Get("sort") != "updated_at,desc" {
			writeJSON(w, http.StatusBadRequest, map[string]any{"detail": "bad page, size or sort"})
			return true
		}
		writeJSON(w, http.StatusOK, s.kaganeSearch(page, size, b.Mode == LayoutChanged))
		return true
	case site == Comix && path == "/browse" && r.Method == http.MethodGet:
		// The shell a Paperback source describes: the list is not in
		// initial-data (no saved page says otherwise), so Comix has no
		// listing and probe --listing comix says why.
		if s.misbehave(w, r, s.browserListingBehavior(site, true), kindHTML) {
			return true
		}
		writeHTML(w, http.StatusOK, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Browse - Comix</title></head>
<body><div id="app-root"></div><script type="application/json" id="initial-data">{"page":"browse","queries":{"[\"browse\",\"filters\"]":{"order":{"chapter_updated_at":"desc"}}},"routes":{}}</script></body></html>`)
		return true
	case site == Natomanga && path == "/manga-list/latest-manga":
		if h, _, err := net.SplitHostPort(r.Host); err == nil && strings.EqualFold(h, bareHost) {
			return false // the bare host redirects, as every path does
		}
		b := s.browserListingBehavior(site, true)
		if s.misbehave(w, r, b, kindHTML) {
			return true
		}
		page, err := strconv.Atoi(r.URL.Query().Get("page"))
		if !r.URL.Query().Has("page") {
			page, err = 1, nil
		}
		if err != nil || page < 1 || page > natomangaListingPages {
			writeHTML(w, http.StatusNotFound, natomangaNotFound)
			return true
		}
		writeHTML(w, http.StatusOK, s.natomangaLatest(page, b.Mode == LayoutChanged))
		return true
	}
	return false
}

// browserListingBehavior is the listing's scripted behaviour, else the
// Site's; count counts the request as a listing page answered.
func (s *Sim) browserListingBehavior(site string, count bool) Behavior {
	var b Behavior
	if count {
		b = s.listingBehavior(site)
	} else {
		ps := s.pub()
		ps.mu.RLock()
		b = ps.listing[site]
		ps.mu.RUnlock()
	}
	if b == (Behavior{}) {
		b = s.behavior(site, "")
	}
	return b
}

// updatedSeries returns the Series of a Site most recently updated by
// now, newest first, skipping skip and taking at most n: each Series once,
// at its newest release.
func (s *Sim) updatedSeries(site string, skip, n int) []int {
	now := s.cfg.Now()
	seen := map[int]bool{}
	var out []int
	const chunk = 512
	for off := 0; len(out) < n; off += chunk {
		rows := s.recent(site, now, off, chunk)
		for _, r := range rows {
			if seen[r.i] {
				continue
			}
			seen[r.i] = true
			if len(seen) > skip && len(out) < n {
				out = append(out, r.i)
			}
		}
		if len(rows) < chunk {
			break
		}
	}
	return out
}

// kaganeSearch is one SearchDto page. changed renames content (the API
// changed).
func (s *Sim) kaganeSearch(page, size int, changed bool) any {
	ids := s.updatedSeries(Kagane, page*size, size)
	content := make([]any, 0, len(ids))
	for _, i := range ids {
		x := s.series(Kagane, i, Behavior{})
		content = append(content, map[string]any{"series_id": x.id, "title": x.title,
			"source_id": "019c" + uuidFor("source", 7, 1, 9)[4:], "current_books": x.latest, "start_year": 2020,
			"cover_image_id": "019c" + uuidFor("image", 7, uint64(x.i), 9)[4:], "alternate_titles": []any{}})
	}
	key := "content"
	if changed {
		key = "items"
	}
	total := s.cfg.SeriesPerSite
	pages := (total + size - 1) / size
	return map[string]any{key: content, "last": page+1 >= pages, "total_elements": total, "total_pages": pages,
		"number": page, "size": size}
}

// natomangaLatest is one latest-manga page: MangaBox cards inside
// div.comic-list, each with the cover link (a[data-id]), the title link
// (h3 a) and the latest chapter link, then the page links. changed
// renames the list and card classes (a layout change).
func (s *Sim) natomangaLatest(page int, changed bool) string {
	o := s.Origin(Natomanga)
	list, card := "comic-list", "list-comic-item-wrap"
	if changed {
		list, card = "comic-grid-v2", "comic-card-v2"
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Latest Manga - MangaNato</title></head>
<body><div class="container"><div class="main-wrapper"><div class="leftCol listCol"><div class="` + list + `">` + "\n")
	for _, i := range s.updatedSeries(Natomanga, (page-1)*NatomangaListingSize, NatomangaListingSize) {
		x := s.series(Natomanga, i, Behavior{})
		t := html.EscapeString(x.title)
		top := x.chapters(false)[0]
		slug := "chapter-" + strings.ReplaceAll(top.number, ".", "-")
		fmt.Fprintf(&b, `<div class="%[1]s"><a class="list-story-item bookmark_check cover" data-id="%[6]d" href="%[2]s/manga/%[3]s" title="%[4]s"><img src="%[2]s/cover/%[3]s.jpg" alt="%[4]s"></a>`+
			`<h3><a href="%[2]s/manga/%[3]s" title="%[4]s">%[4]s</a></h3>`+
			`<a class="list-story-item-wrap-chapter" href="%[2]s/manga/%[3]s/%[5]s" title="%[4]s %[7]s">%[7]s</a>`+
			`<div><span class="aye_icon">%[8]d</span></div><p>A generated Series.</p></div>`+"\n",
			card, o, x.id, t, slug, 10000+i, html.EscapeString(top.name), 1000+i)
	}
	b.WriteString(`</div><div class="panel_page_number"><div class="group_page">`)
	fmt.Fprintf(&b, `<a class="page_blue" href="%s/manga-list/latest-manga?page=1">First(1)</a>`, o)
	for p := max(1, page-2); p <= min(natomangaListingPages, page+2); p++ {
		if p == page {
			fmt.Fprintf(&b, `<a class="page_select">%d</a>`, p)
			continue
		}
		fmt.Fprintf(&b, `<a href="%s/manga-list/latest-manga?page=%d">%d</a>`, o, p, p)
	}
	fmt.Fprintf(&b, `<a class="page_blue page_last" href="%s/manga-list/latest-manga?page=%d">Last(%d)</a>`, o, natomangaListingPages, natomangaListingPages)
	b.WriteString("</div></div></div></div></div></body></html>")
	return b.String()
}
