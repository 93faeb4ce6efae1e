package sitesim

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// serveComix: /title/{hid}-{slug} (title page whose <script
// id="initial-data"> is the live React Query cache: the manga detail with
// the Site's Latest Chapter aggregate), /api/v2/manga/{hid}/chapters (the
// retired chapter API: 404 for every Series, as since 2026-05-07),
// /@waf/challenge (the Site's own "Security check" page, where a Series
// with Behavior.WAF is sent), /title/{hid}-{slug}/{id}-chapter-{n} (reader
// page, in reader_pages.go), /poster/{file} (cover).
func (s *Sim) serveComix(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) == 2 && p[0] == "poster" {
		serveCover(w, r)
		return
	}
	if len(p) >= 1 && p[0] == "api" {
		writeJSON(w, http.StatusNotFound, map[string]any{"status": 404, "message": "Not Found"})
		return
	}
	if len(p) == 2 && p[0] == "@waf" {
		writeHTML(w, http.StatusOK, comixWAF)
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
	x, b, ok := s.open(w, r, Comix, id, kindHTML, notFound)
	if !ok {
		return
	}
	if b.WAF {
		http.Redirect(w, r, "/@waf/challenge?return="+url.QueryEscape(r.URL.Path), http.StatusFound)
		return
	}
	// The relative times are the simulator clock's; its Date says so.
	now := s.cfg.Now()
	w.Header().Set("Date", now.UTC().Format(http.TimeFormat))
	writeHTML(w, http.StatusOK, comixPage(s.Origin(Comix), x, now, b.Mode == LayoutChanged))
}

// comixWAF is the Site's own interstitial: it never clears for a robot.
const comixWAF = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Security check</title>
<meta name="robots" content="noindex, nofollow"></head><body><main><h1>Verify you&#39;re human</h1>
<p>Drag to rotate the circle until the picture stands upright.</p><div class="dial"></div></main></body></html>`

const comixNotFound = `<!DOCTYPE html><html><head><title>Page not found | Comix</title></head>
<body><div id="app"><main><h1>404</h1><p>The page you are looking for does not exist.</p></main></div></body></html>`

// comixPage is the title page: the React Query cache holds the bare
// camelCase manga detail under ["manga","detail","{hid}"] with the Site's
// own Latest Chapter aggregate (latestChapter, latestChapterUrl,
// chapterUpdatedAtFormatted, hasChapters) and no chapter list. changed
// renames the aggregate (a layout change).
func comixPage(o string, x simSeries, now time.Time, changed bool) string {
	hid, _, _ := strings.Cut(x.id, "-")
	chs := x.chapters(false)
	top, first := chs[0], chs[len(chs)-1]
	link := func(c chapter) string {
		return "/title/" + x.id + "/" + strconv.Itoa(x.i*10000+chapterKey(c)) + "-chapter-" + c.number
	}
	var num any
	_ = json.Unmarshal([]byte(top.number), &num)
	detail := map[string]any{
		"id": x.i + 1, "hid": hid, "title": x.title, "altTitles": comixAltTitles(x.i), "links": comixLinks(x.i), "type": "manga", "status": "releasing",
		"poster": map[string]string{
			"medium": o + "/poster/" + hid + "-medium.jpg",
			"large":  o + "/poster/" + hid + "-large.jpg",
		},
		"latestChapter": num, "finalChapter": 0, "hasChapters": true,
		"chapterUpdatedAtFormatted": agoText(now, top.at),
		"url":                       "/title/" + x.id, "firstChapterUrl": link(first), "latestChapterUrl": link(top),
	}
	if changed {
		detail["lastChapterNumber"] = detail["latestChapter"]
		delete(detail, "latestChapter")
	}
	queries := map[string]any{`["manga","detail","` + hid + `"]`: detail, `["manga","groups","` + hid + `"]`: []any{}}
	data, _ := json.Marshal(map[string]any{"page": "manga", "queries": queries,
		"manga": map[string]any{"hid": hid, "id": x.i + 1}})
	// The JSON sits in a script element; keep "</" from closing it early.
	js := strings.ReplaceAll(string(data), "</", `<\/`)
	return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head>
<body> <div id="app-root"></div> <script type="application/json" id="initial-data">%s</script>
<script type="module" src="/dist/main-sim.js"></script></body></html>`, html.EscapeString(x.title), js)
}

// agoText is the Site's relative time for at, seen at now ("9h ago").
func agoText(now, at time.Time) string {
	d := now.Sub(at)
	switch {
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	case d < 7*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
	case d < 30*24*time.Hour:
		return strconv.Itoa(int(d/(7*24*time.Hour))) + "w ago"
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d/(30*24*time.Hour))) + "mo ago"
	}
	return strconv.Itoa(int(d/(365*24*time.Hour))) + "y ago"
}
