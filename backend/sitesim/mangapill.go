package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// serveMangaPill: /manga/{n}/{slug} (series page with the chapter list,
// newest first, no dates), /covers/{n}.jpeg, /chapters/{n}-{code}/{slug}.
func (s *Sim) serveMangaPill(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) >= 2 && p[0] == "covers" {
		serveCover(w, r)
		return
	}
	if len(p) < 2 || p[0] != "manga" {
		writeHTML(w, http.StatusNotFound, mangapillNotFound)
		return
	}
	notFound := func() { writeHTML(w, http.StatusNotFound, mangapillNotFound) }
	x, b, ok := s.open(w, r, MangaPill, p[1], kindHTML, notFound)
	if !ok {
		return
	}
	writeHTML(w, http.StatusOK, mangapillPage(s.Origin(MangaPill), x, b.Mode == LayoutChanged))
}

const mangapillNotFound = `<!DOCTYPE html><html><head><title>MangaPill</title></head>
<body><div class="container py-3"><h1 class="text-lg font-bold">404 - Not found</h1></div></body></html>`

func mangapillPage(o string, x simSeries, changed bool) string {
	var rows strings.Builder
	for _, c := range x.chapters(true) {
		code := "0000000"
		if c.whole >= 0 {
			f, _ := strconv.ParseFloat(c.number, 64)
			code = fmt.Sprintf("1%06d", int(f*1000+0.5))
		}
		slug := x.slug + "-chapter-" + strings.ReplaceAll(c.number, ".", "-")
		if c.whole < 0 {
			slug = x.slug + "-special-2"
		}
		fmt.Fprintf(&rows, `<a class="border border-border p-1" href="/chapters/%s-%s/%s" title="%s %s">%s</a>`+"\n",
			x.id, code, slug, html.EscapeString(x.title), html.EscapeString(c.name), html.EscapeString(c.name))
	}
	listID := "chapters"
	if changed {
		listID = "chapter-list-v2"
	}
	t, cover := html.EscapeString(x.title), o+"/covers/"+x.id+".jpeg"
	if x.hostile.TitleHTML != "" {
		t = x.hostile.TitleHTML
	}
	if x.hostile.CoverURL != "" {
		cover = html.EscapeString(x.hostile.CoverURL)
	}
	return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%[1]s Manga - MangaPill</title></head>
<body><header class="bg-card"><nav class="container flex items-center"><h1 class="text-lg font-bold"><a href="/">MangaPill</a></h1>
 <form action="/search"><input name="q" placeholder="Search manga..."></form></nav></header>
<div class="container">
 <div class="flex flex-col sm:flex-row my-3">
  <div class="text-transparent flex-shrink-0 w-60 h-80 relative rounded bg-card mr-3 mb-3">
   <img data-src="%[2]s" class="lazy rounded" alt="%[1]s" />
  </div>
  <div class="flex flex-col">
   <div class="mb-3"><h1 class="font-bold text-lg md:text-2xl">%[1]s</h1><div class="text-sm text-secondary">%[1]s</div></div>
   <div class="text-sm text--secondary">A generated Series.</div>
  </div>
 </div>
</div>
<div class="container py-3">
 <div id="%[3]s" class="my-3" data-filter-list-container="">
  <div class="grid grid-cols-1 md:grid-cols-3 lg:grid-cols-4 gap-1" data-filter-list="">
%[4]s  </div>
 </div>
</div></body></html>`, t, cover, listID, rows.String())
}
