package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Listing page sizes. MangaDex's is the API's limit; the other two Sites'
// sizes are not published (docs/adr/0015), so these are stand-ins.
const (
	MangaDexListingSize    = 100
	MangaPillListingSize   = 50 // one page only, as on the Site
	WeebCentralListingSize = 32
)

// SetListing scripts every listing page of a Site (a failure mode, a
// delay); the zero Behavior serves the listing normally.
func (s *Sim) SetListing(site string, b Behavior) {
	ps := s.pub()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.listing == nil {
		ps.listing = map[string]Behavior{}
	}
	ps.listing[site] = b
}

// ListingHits counts the listing pages a Site has answered.
func (s *Sim) ListingHits(site string) int64 {
	ps := s.pub()
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	return ps.hits[site]
}

func (s *Sim) listingBehavior(site string) Behavior {
	ps := s.pub()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.hits == nil {
		ps.hits = map[string]int64{}
	}
	ps.hits[site]++
	return ps.listing[site]
}

// serveListing answers a Site's "latest updates" listing in its real shape
// from the chapters Publish and BulkUpload drew: MangaDex GET /chapter
// (JSON, limit and offset), MangaPill /chapters (one page), WeebCentral
// /latest-updates/{page}. It reports whether the request was a listing.
func (s *Sim) serveListing(site string, w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	var page, size int
	var kind string
	switch {
	case site == MangaDex && path == "/chapter":
		kind, size = kindJSON, MangaDexListingSize
		q := r.URL.Query()
		if l, err := strconv.Atoi(q.Get("limit")); err == nil && l > 0 && l <= MangaDexListingSize {
			size = l
		} else if q.Has("limit") {
			writeJSON(w, http.StatusBadRequest, map[string]any{"result": "error", "errors": []any{map[string]any{"status": 400, "detail": "limit must be 1..100"}}})
			return true
		}
		off, _ := strconv.Atoi(q.Get("offset"))
		if off < 0 || off+size > 10000 {
			writeJSON(w, http.StatusBadRequest, map[string]any{"result": "error", "errors": []any{map[string]any{"status": 400, "detail": "offset out of range"}}})
			return true
		}
		page = off / size
	case site == MangaPill && path == "/chapters":
		kind, size = kindHTML, MangaPillListingSize
	case site == WeebCentral && strings.HasPrefix(path, "/latest-updates/"):
		n, err := strconv.Atoi(strings.TrimPrefix(path, "/latest-updates/"))
		if err != nil || n < 1 {
			writeHTML(w, http.StatusNotFound, weebcentralNotFound)
			return true
		}
		kind, size, page = kindHTML, WeebCentralListingSize, n-1
	default:
		return false
	}
	b := s.listingBehavior(site)
	if s.misbehave(w, r, b, kind) {
		return true
	}
	if b.Mode == Gone {
		switch site {
		case MangaDex:
			mangadexError(w, "no route matched")
		case MangaPill:
			writeHTML(w, http.StatusNotFound, mangapillNotFound)
		default:
			writeHTML(w, http.StatusNotFound, weebcentralNotFound)
		}
		return true
	}
	now := s.cfg.Now()
	rows := s.recent(site, now, page*size, size)
	more := s.releasedBefore(site, now) > (page+1)*size
	switch site {
	case MangaDex:
		writeJSON(w, http.StatusOK, s.mangadexListing(rows, page*size, s.releasedBefore(site, now), b.Mode == LayoutChanged))
	case MangaPill:
		writeHTML(w, http.StatusOK, s.mangapillListing(rows, b.Mode == LayoutChanged))
	case WeebCentral:
		writeHTML(w, http.StatusOK, s.weebcentralListing(rows, more, b.Mode == LayoutChanged))
	}
	return true
}

// number is the chapter number a release shows: the Series' numbering
// before Publish plus the release's ordinal.
func (s *Sim) number(site string, r release) int {
	return s.series(site, r.i, Behavior{}).base + r.k
}

func (s *Sim) mangadexListing(rows []release, offset, total int, changed bool) any {
	data := make([]any, 0, len(rows))
	for _, r := range rows {
		at := r.at.UTC().Format("2006-01-02T15:04:05+00:00")
		attrs := map[string]any{"volume": nil, "title": nil, "translatedLanguage": "en", "externalUrl": nil,
			"pages": 20, "publishAt": at, "readableAt": at, "createdAt": at, "updatedAt": at, "version": 1}
		num := strconv.Itoa(s.number(MangaDex, r))
		if changed {
			attrs["chapterNumber"] = num
		} else {
			attrs["chapter"] = num
		}
		data = append(data, map[string]any{"id": uuidFor("chapter", 4, uint64(r.i)<<20|uint64(r.k), 3), "type": "chapter",
			"attributes": attrs, "relationships": []any{
				map[string]any{"id": uuidFor("group", 4, uint64(r.i%40), 2), "type": "scanlation_group"},
				map[string]any{"id": seriesID(MangaDex, r.i), "type": "manga"}}})
	}
	return map[string]any{"result": "ok", "response": "collection", "data": data, "limit": MangaDexListingSize, "offset": offset, "total": total}
}

func (s *Sim) mangapillListing(rows []release, changed bool) string {
	var b strings.Builder
	grid := "grid"
	if changed {
		grid = "list-v2"
	}
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Latest Manga Chapters - MangaPill</title></head>
<body><div class="container py-3"><div class="%s grid-cols-2 gap-3">`+"\n", grid)
	for _, r := range rows {
		x := s.series(MangaPill, r.i, Behavior{})
		n := s.number(MangaPill, r)
		fmt.Fprintf(&b, `<div><a href="/chapters/%s-1%06d/%s-chapter-%d" class="relative block"><div class="text-lg font-black">#%d</div></a>`+
			`<div class="px-1"><a class="text-secondary" href="/manga/%s/%s"><div class="text-sm font-bold">%s</div></a>`+
			`<time-ago datetime="%s"></time-ago></div></div>`+"\n",
			x.id, n*1000, x.slug, n, n, x.id, x.slug, html.EscapeString(x.title), r.at.UTC().Format(time.RFC3339))
	}
	b.WriteString("</div></div></body></html>")
	return b.String()
}

func (s *Sim) weebcentralListing(rows []release, more, changed bool) string {
	var b strings.Builder
	for _, r := range rows {
		x := s.series(WeebCentral, r.i, Behavior{})
		tag := "article"
		if changed {
			tag = "section"
		}
		fmt.Fprintf(&b, `<%s class="flex gap-4 p-2" data-tip="%s"><a class="aspect-square" href="%s/series/%s/%s"><picture><img src="/cover/small/%s.webp"></picture></a>`+
			`<a class="min-w-0" href="/chapters/%s"><div class="font-semibold">%s</div><div class="flex"><span>Chapter %d</span></div>`+
			`<div><time datetime="%s">ago</time></div></a></%s>`+"\n",
			tag, html.EscapeString(x.title), s.Origin(WeebCentral), x.id, strings.ReplaceAll(x.title, " ", "-"), x.id,
			ulidFor(uint64(r.i)<<20|uint64(r.k), 9), html.EscapeString(x.title), s.number(WeebCentral, r), r.at.UTC().Format(time.RFC3339), tag)
	}
	if more {
		b.WriteString(`<button class="btn w-full" hx-get="/latest-updates/next" hx-swap="outerHTML"><span>View More...</span></button>`)
	}
	return b.String()
}
