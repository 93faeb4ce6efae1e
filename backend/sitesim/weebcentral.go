package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

// serveWeebCentral: /series/{ulid}/{Slug} (series page),
// /series/{ulid}/full-chapter-list (chapter rows, newest first),
// /cover/{size}/{ulid}.webp (cover), /chapters/{ulid} (reader page, in reader_pages.go).
// An unknown or removed Series answers 307 to /404, and /404 answers 200
// with the not-found page, as the live Site does.
func (s *Sim) serveWeebCentral(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) >= 2 && p[0] == "cover" {
		serveCover(w, r)
		return
	}
	if len(p) == 1 && p[0] == "404" {
		writeHTML(w, http.StatusOK, weebcentralNotFound)
		return
	}
	if len(p) < 2 || p[0] != "series" {
		writeHTML(w, http.StatusNotFound, weebcentralNotFound)
		return
	}
	notFound := func() { http.Redirect(w, r, "/404", http.StatusTemporaryRedirect) }
	x, b, ok := s.open(w, r, WeebCentral, strings.ToUpper(p[1]), kindHTML, notFound)
	if !ok {
		return
	}
	o := s.Origin(WeebCentral)
	if len(p) == 3 && p[2] == "full-chapter-list" {
		writeHTML(w, http.StatusOK, weebcentralList(x, b.Mode == LayoutChanged))
		return
	}
	writeHTML(w, http.StatusOK, weebcentralPage(o, x))
}

const weebcentralNotFound = `<!DOCTYPE html><html><head><title>404 | Weeb Central</title></head>
<body><main class="flex flex-col items-center"><h1 class="text-3xl">404</h1><p>This page could not be found.</p></main></body></html>`

func weebcentralPage(o string, x simSeries) string {
	t := html.EscapeString(x.title)
	return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%[1]s | Weeb Central</title></head>
<body><main class="flex-1">
<section x-data="{ show_all: false }" class="flex flex-col md:flex-row gap-4">
 <section class="flex flex-col items-center gap-4 md:w-1/3">
  <picture><source srcset="%[2]s/cover/small/%[3]s.webp" type="image/webp"><img src="%[2]s/cover/fallback/%[3]s.jpg" alt="%[1]s cover" class="w-full" loading="lazy"></picture>
  <ul class="flex flex-col gap-4"><li><strong>Author(s): </strong><span><a href="%[2]s/search?author=Generated">Generated</a></span></li>
  <li><strong>Status: </strong><a href="%[2]s/search?included_status=Ongoing">Ongoing</a></li></ul>
 </section>
 <section class="flex flex-col gap-4 md:w-2/3">
  <h1 class="hidden md:block text-2xl font-bold">%[1]s</h1>
  <div id="chapter-list" hx-get="%[2]s/series/%[3]s/full-chapter-list" hx-trigger="click">Show All Chapters</div>
 </section>
</section></main></body></html>`, t, o, x.id)
}

// WeebCentralPublic is the real Site's origin. The real chapter list links
// every row there in absolute form, so the simulator does too, whatever
// address it listens on (the adapter keeps such links as they are).
const WeebCentralPublic = "https://weebcentral.com"

// weebcentralWords are the label words the real Site uses: the source's
// own word for a chapter, whatever it is.
var weebcentralWords = [...]string{"Chapter", "Episode", "Navigation", "Suggestion"}

// weebcentralLabel is a row's label: Series i uses word i%4 for its
// numbered rows ("Episode 139.5"); specials keep their own name.
func weebcentralLabel(x simSeries, c chapter) string {
	if c.whole < 0 {
		return c.name
	}
	return weebcentralWords[x.i%len(weebcentralWords)] + " " + c.number
}

// weebcentralList is the full chapter list, newest first. Every sixth
// Series starts with a number-less "Epilogue" row, which adapters skip.
func weebcentralList(x simSeries, changed bool) string {
	var b strings.Builder
	rows := x.chapters(true)
	if x.i%6 == 1 {
		rows = append([]chapter{{whole: -1, name: "Epilogue", at: rows[0].at.Add(time.Minute)}}, rows...)
	}
	for _, c := range rows {
		chID := ulidFor(uint64(x.i)<<20|uint64(chapterKey(c)), 7)
		if c.name == "Epilogue" {
			chID = ulidFor(uint64(x.i)<<20|uint64(1), 7)
		}
		at := c.at.Format("2006-01-02T15:04:05.000Z")
		label := html.EscapeString(weebcentralLabel(x, c))
		if changed {
			fmt.Fprintf(&b, `<li class="chapter-row"><a href="%s/chapters/%s"><b>%s</b><em>%s</em></a></li>`+"\n", WeebCentralPublic, chID, label, at)
			continue
		}
		fmt.Fprintf(&b, `<div x-data="{ hovered: false }" class="flex items-center">
<a href="%s/chapters/%s" class="hover:bg-base-300 flex-1 flex items-center p-2">
<span class="flex items-center"><svg class="w-4 h-4" viewBox="0 0 24 24"></svg></span>
<span class="grow flex items-center gap-2"><span class="">%s</span></span>
<time class="text-datetime opacity-50" datetime="%s">%s</time></a></div>
`, WeebCentralPublic, chID, label, at, c.at.Format("Jan 2, 2006"))
	}
	return b.String()
}
