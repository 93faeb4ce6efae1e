package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// serveKagane: /series/{id} (app shell page), /series/{id}/reader/{book},
// /api/v2/series/{id} (details with series_books ascending, as every
// public client reads them), /api/v2/image/{image_id} (cover).
func (s *Sim) serveKagane(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) == 4 && p[0] == "api" && p[1] == "v2" && p[2] == "image" {
		serveCover(w, r)
		return
	}
	api := len(p) == 4 && p[0] == "api" && p[1] == "v2" && p[2] == "series"
	page := len(p) >= 2 && p[0] == "series"
	if !api && !page {
		kaganeNotFound(w, api)
		return
	}
	id := p[1]
	if api {
		id = p[3]
	}
	kind := kindHTML
	if api {
		kind = kindJSON
	}
	x, b, ok := s.open(w, r, Kagane, strings.ToLower(id), kind, func() { kaganeNotFound(w, api) })
	if !ok {
		return
	}
	if page {
		writeHTML(w, http.StatusOK, fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | Kagane</title></head>
<body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>`, html.EscapeString(x.title)))
		return
	}
	writeJSON(w, http.StatusOK, kaganeDetails(x, b.Mode == LayoutChanged))
}

func kaganeNotFound(w http.ResponseWriter, api bool) {
	if api {
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": "Series not found"})
		return
	}
	writeHTML(w, http.StatusNotFound, "<!DOCTYPE html><html><head><title>Not Found | Kagane</title></head><body><div id=\"root\"></div></body></html>")
}

func kaganeBooks(x simSeries) []any {
	rows := x.chapters(false)
	books := make([]any, 0, len(rows)+1)
	for k := len(rows) - 1; k >= 0; k-- { // ascending, as Kagane lists them
		c := rows[k]
		sort, _ := strconv.ParseFloat(c.number, 64)
		books = append(books, map[string]any{
			"book_id":   "019c" + uuidFor("book", 7, uint64(x.i)<<20|uint64(chapterKey(c)), 8)[4:],
			"series_id": x.id, "title": c.name, "created_at": c.at.Format("2006-01-02T15:04:05"),
			"sort_no": sort, "chapter_no": c.number, "volume_no": nil, "page_count": 20,
			"groups": []any{map[string]any{"title": "Generated Scans"}},
		})
	}
	if x.odd { // a special without a chapter number sorts last
		books = append(books, map[string]any{
			"book_id": "019c" + uuidFor("book", 7, uint64(x.i)<<20|1, 8)[4:], "series_id": x.id, "title": "Special: Side Story",
			"created_at": rows[0].at.Format("2006-01-02T15:04:05"), "sort_no": float64(x.latest) + 0.75,
			"chapter_no": nil, "volume_no": nil, "page_count": 8, "groups": []any{}})
	}
	return books
}

func kaganeDetails(x simSeries, changed bool) any {
	d := map[string]any{
		"series_id": x.id, "title": x.title, "description": "A generated Series.",
		"upload_status": "ONGOING", "format": "Manga", "source_id": "019c" + uuidFor("source", 7, 1, 9)[4:],
		"series_covers": []any{map[string]any{"image_id": "019c" + uuidFor("image", 7, uint64(x.i), 9)[4:], "is_primary": true}},
	}
	switch {
	case changed:
		d["books_v3"] = kaganeBooks(x)
	default:
		d["series_books"] = kaganeBooks(x)
	}
	return d
}
