package sitesim

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
)

// serveComix: /title/{hid}-{slug} (title page whose <script
// id="initial-data"> is the live React Query cache: the manga detail only),
// /api/v2/manga/{hid}/chapters (the chapter API the page calls),
// /title/{hid}-{slug}/{id}-chapter-{n} (reader page, in reader_pages.go), /poster/{file} (cover).
func (s *Sim) serveComix(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) == 2 && p[0] == "poster" {
		serveCover(w, r)
		return
	}
	if len(p) == 5 && p[0] == "api" && p[1] == "v2" && p[2] == "manga" && p[4] == "chapters" {
		s.serveComixChapters(w, r, strings.ToLower(p[3]))
		return
	}
	if len(p) < 2 || p[0] != "title" {
		writeHTML(w, http.StatusNotFound, comixNotFound)
		return
	}
	id := strings.ToLower(p[1])
	notFound := func() { writeHTML(w, http.StatusNotFound, comixNotFound) }
	if len(p) == 3 { // reader pages are reader_pages.go's; anything else is no page
		notFound()
		return
	}
	x, _, ok := s.open(w, r, Comix, id, kindHTML, notFound)
	if !ok {
		return
	}
	writeHTML(w, http.StatusOK, comixPage(s.Origin(Comix), x))
}

// serveComixChapters answers the chapter API for a hid: the Series whose
// id starts with it. LayoutChanged renames the items.
func (s *Sim) serveComixChapters(w http.ResponseWriter, r *http.Request, hid string) {
	gone := func() {
		writeJSON(w, http.StatusNotFound, map[string]any{"status": 404, "message": "Manga not found"})
	}
	i, ok := comixIndexByHid(s, hid)
	if !ok {
		gone()
		return
	}
	x, b, ok := s.open(w, r, Comix, seriesID(Comix, i), kindJSON, gone)
	if !ok {
		return
	}
	items := []any{}
	for _, c := range x.chapters(false) {
		cid := x.i*10000 + chapterKey(c)
		var num any
		_ = json.Unmarshal([]byte(c.number), &num)
		items = append(items, map[string]any{
			"chapter_id": cid, "manga_id": x.i + 1, "scanlation_group_id": 77, "number": num, "name": "",
			"language": "en", "volume": 0, "votes": 3, "created_at": c.at.Unix(), "updated_at": c.at.Unix(),
			"scanlation_group": map[string]any{"scanlation_group_id": 77, "name": "Generated Scans"}, "is_official": 0,
		})
	}
	key := "items"
	if b.Mode == LayoutChanged {
		key = "entries"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": 200, "result": map[string]any{key: items,
		"pagination": map[string]any{"count": len(items), "total": len(items), "per_page": 100, "current_page": 1, "last_page": 1}}})
}

// comixIndexByHid finds the Series whose id is "{hid}-{slug}".
func comixIndexByHid(s *Sim, hid string) (int, bool) {
	n, ok := unbase26(hid)
	if !ok || n < hidOffset || base26(n) != hid {
		return 0, false
	}
	return s.lookup(Comix, seriesID(Comix, n-hidOffset))
}

const comixNotFound = `<!DOCTYPE html><html><head><title>Page not found | Comix</title></head>
<body><div id="app"><main><h1>404</h1><p>The page you are looking for does not exist.</p></main></div></body></html>`

// comixPage is the title page: the React Query cache holds the bare manga
// detail under ["manga","detail","{hid}"] and no chapter list.
func comixPage(o string, x simSeries) string {
	hid, _, _ := strings.Cut(x.id, "-")
	detail := map[string]any{
		"hash_id": hid, "slug": x.slug, "title": x.title, "alt_titles": []string{}, "synopsis": "A generated Series.",
		"poster": map[string]string{
			"small":  o + "/poster/" + hid + "-small.jpg",
			"medium": o + "/poster/" + hid + "-medium.jpg",
			"large":  o + "/poster/" + hid + "-large.jpg",
		},
		"status": "releasing", "type": "manga", "is_nsfw": false, "term_ids": []int{},
	}
	queries := map[string]any{`["manga","detail","` + hid + `"]`: detail, `["user","me"]`: nil}
	data, _ := json.Marshal(map[string]any{"page": "title", "queries": queries, "buildId": "sim"})
	// The JSON sits in a script element; keep "</" from closing it early.
	js := strings.ReplaceAll(string(data), "</", `<\/`)
	return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | Comix</title></head>
<body><div id="app"></div>
<script id="initial-data" type="application/json">%s</script>
<script type="module" src="/assets/app.js"></script></body></html>`, html.EscapeString(x.title), js)
}
