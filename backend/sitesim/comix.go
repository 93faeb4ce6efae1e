package sitesim

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
)

// serveComix: /title/{hid}-{slug} (title page whose <script
// id="initial-data"> JSON carries the details and the chapter list),
// /title/{hid}-{slug}/{id}-chapter-{n} (reader page), /poster/{file} (cover).
func (s *Sim) serveComix(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) == 2 && p[0] == "poster" {
		serveCover(w, r)
		return
	}
	if len(p) < 2 || p[0] != "title" {
		writeHTML(w, http.StatusNotFound, comixNotFound)
		return
	}
	id := strings.ToLower(p[1])
	notFound := func() { writeHTML(w, http.StatusNotFound, comixNotFound) }
	if len(p) == 3 { // a reader page of a known Series; no failure mode applies
		if _, ok := s.lookup(Comix, id); !ok {
			notFound()
			return
		}
		writeHTML(w, http.StatusOK, "<!DOCTYPE html><html><head><title>Reading | Comix</title></head><body><div id=\"app\"></div></body></html>")
		return
	}
	x, b, ok := s.open(w, r, Comix, id, kindHTML, notFound)
	if !ok {
		return
	}
	writeHTML(w, http.StatusOK, comixPage(s.Origin(Comix), x, b.Mode == LayoutChanged))
}

const comixNotFound = `<!DOCTYPE html><html><head><title>Page not found | Comix</title></head>
<body><div id="app"><main><h1>404</h1><p>The page you are looking for does not exist.</p></main></div></body></html>`

func comixPage(o string, x simSeries, changed bool) string {
	hid, _, _ := strings.Cut(x.id, "-")
	items := []any{}
	for _, c := range x.chapters(false) {
		id := x.i*10000 + chapterKey(c)
		var num any
		_ = json.Unmarshal([]byte(c.number), &num)
		items = append(items, map[string]any{
			"id": id, "number": num, "name": "", "url": fmt.Sprintf("/title/%s/%d-chapter-%s", x.id, id, c.number),
			"createdAt": c.at.Unix(), "createdAtFormatted": "recently", "votes": 3,
			"group": map[string]any{"id": 77, "name": "Generated Scans"}, "isOfficial": false,
		})
	}
	detail := map[string]any{"data": map[string]any{
		"hid": hid, "slug": x.slug, "title": x.title, "altTitles": []string{},
		"poster": map[string]string{
			"small":  o + "/poster/" + hid + "-small.jpg",
			"medium": o + "/poster/" + hid + "-medium.jpg",
			"large":  o + "/poster/" + hid + "-large.jpg",
		},
		"status": "releasing", "type": "manga",
	}}
	queries := map[string]any{
		`["manga","detail","` + hid + `"]`: detail,
	}
	chKey := `["manga","chapters","` + hid + `",{"order":{"number":"desc"},"page":1}]`
	list := map[string]any{"data": map[string]any{"items": items, "pagination": map[string]any{"page": 1, "lastPage": 1, "total": len(items)}}}
	if changed {
		queries[`["manga","episodes","`+hid+`"]`] = map[string]any{"data": map[string]any{"entries": items}}
	} else {
		queries[chKey] = list
	}
	data, _ := json.Marshal(map[string]any{"queries": queries, "buildId": "sim"})
	// The JSON sits in a script element; keep "</" from closing it early.
	js := strings.ReplaceAll(string(data), "</", `<\/`)
	return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | Comix</title></head>
<body><div id="app"></div>
<script id="initial-data" type="application/json">%s</script>
<script type="module" src="/assets/app.js"></script></body></html>`, html.EscapeString(x.title), js)
}
