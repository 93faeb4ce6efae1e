package sitesim

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// serveNatomanga: /manga/{slug} (series page: title and cover),
// /manga/{slug}/{chapter_slug} (reader, in reader_pages.go), /api/manga/{slug}/chapters
// (chapter JSON, newest first), /cover/{slug}.jpg. The simulator's origin
// stands for the family's canonical www host; its bare stand-in,
// localhost on the same port (BareOrigin), answers every path with a 301
// to it, as natomanga.com answers with www.natomanga.com.
func (s *Sim) serveNatomanga(w http.ResponseWriter, r *http.Request) {
	if h, _, err := net.SplitHostPort(r.Host); err == nil && strings.EqualFold(h, bareHost) {
		http.Redirect(w, r, s.Origin(Natomanga)+r.URL.RequestURI(), http.StatusMovedPermanently)
		return
	}
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) == 2 && p[0] == "cover" {
		serveCover(w, r)
		return
	}
	api := len(p) == 4 && p[0] == "api" && p[1] == "manga" && p[3] == "chapters"
	page := len(p) == 2 && p[0] == "manga"
	if !api && !page {
		writeHTML(w, http.StatusNotFound, natomangaNotFound)
		return
	}
	slug, kind := p[1], kindHTML
	if api {
		slug, kind = p[2], kindJSON
	}
	x, b, ok := s.open(w, r, Natomanga, strings.ToLower(slug), kind, func() { natomangaGone(w, api) })
	if !ok {
		return
	}
	o := s.Origin(Natomanga)
	if api {
		writeJSON(w, http.StatusOK, natomangaChapters(x, b.Mode == LayoutChanged))
		return
	}
	t := html.EscapeString(x.title)
	writeHTML(w, http.StatusOK, fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>%[1]s Manga Online Free - MangaNato</title></head>
<body><div class="container"><div class="main-wrapper"><div class="leftCol">
<div class="manga-info-top">
 <div class="manga-info-pic"><img src="%[2]s/cover/%[3]s.jpg" alt="%[1]s" onerror="this.src='/images/404-avatar.png'" /></div>
 <ul class="manga-info-text">
  <li><h1>%[1]s</h1><h2 class="story-alternative">Alternative : %[1]s</h2></li>
  <li>Author(s) : <a href="/author/generated">Generated</a></li>
  <li>Status : Ongoing</li>
 </ul>
</div>
<div class="chapter-list" id="chapter-list-container"><div class="row"><span>Loading chapters…</span></div></div>
</div></div></div></body></html>`, t, o, x.id))
}

// bareHost is the host name the simulator answers as natomanga's bare
// host: one every resolver (Go's, Chromium's) maps to loopback.
const bareHost = "localhost"

// BareOrigin is natomanga's bare-host stand-in ("http://localhost:PORT"),
// which redirects to Origin; "" for the other Sites or before Start.
func (s *Sim) BareOrigin(site string) string {
	o := s.Origin(site)
	if site != Natomanga || o == "" {
		return ""
	}
	u, err := url.Parse(o)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + net.JoinHostPort(bareHost, u.Port())
}

const natomangaNotFound = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><div class="panel-not-found"><p>Sorry, the page you have requested cannot be found.</p></div></body></html>`

func natomangaGone(w http.ResponseWriter, api bool) {
	if api {
		writeJSON(w, http.StatusNotFound, map[string]any{"success": false, "message": "Manga not found"})
		return
	}
	writeHTML(w, http.StatusNotFound, natomangaNotFound)
}

// natomangaChapters is the chapter API's answer, newest first. As on the
// live API, the number lives in chapter_slug ("chapter-12-5"); every fifth
// Series omits chapter_num and chapter_name (the fields gallery-dl reads are
// only slug, updated_at and view), and half chapters carry the whole
// number in chapter_num (12 for chapter-12-5), so adapters must trust the
// slug.
func natomangaChapters(x simSeries, changed bool) any {
	var rows []any
	for _, c := range x.chapters(true) {
		num := 0.0
		slug := "special-2"
		if c.whole >= 0 {
			num, _ = strconv.ParseFloat(c.number, 64)
			slug = "chapter-" + strings.ReplaceAll(c.number, ".", "-")
			if x.half {
				num = float64(c.whole)
			}
		}
		row := map[string]any{"chapter_name": c.name, "chapter_slug": slug,
			"chapter_num": num, "updated_at": c.at.Format("2006-01-02T15:04:05.000000Z"), "view": 1000 + x.i}
		if x.i%5 == 1 {
			delete(row, "chapter_num")
			delete(row, "chapter_name")
		}
		rows = append(rows, row)
	}
	key := "chapters"
	if changed {
		key = "chapter_items"
	}
	return map[string]any{"success": true, "data": map[string]any{key: rows,
		"pagination": map[string]any{"current_page": 1, "last_page": 1, "total": len(rows)}}}
}
