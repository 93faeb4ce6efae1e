package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// serveReader answers the Sites' reader (chapter) pages in their real
// structure (see backend/userscript/testdata/README.md for the evidence):
// the Series link, the chapter's label and, for the single-page apps, a
// late render. Links are relative, so they stay on whatever host the page
// is served for. It reports whether it answered.
func (s *Sim) serveReader(site string, w http.ResponseWriter, r *http.Request) bool {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	var c readerChapter
	ok := false
	switch {
	case site == MangaDex && len(p) >= 2 && len(p) <= 3 && p[0] == "chapter":
		if n, okID := uuidIndex(strings.ToLower(p[1])); okID {
			if n&0xfffff >= translationKey { // a row in another language
				c, ok = s.translationReader(n, strings.ToLower(p[1]))
			} else {
				c, ok = s.readerSeries(site, n, mangadexChapterID, p[1])
			}
		}
	case site == WeebCentral && len(p) == 2 && p[0] == "chapters":
		if n, okID := ulidIndex(p[1]); okID {
			c, ok = s.readerSeries(site, n, weebcentralChapterID, p[1])
		}
	case site == Kagane && len(p) == 4 && p[0] == "series" && p[2] == "reader":
		if n, okID := uuidIndex(strings.ToLower(p[3])); okID {
			c, ok = s.readerSeries(site, n, kaganeBookID, p[3])
			ok = ok && strings.EqualFold(c.x.id, p[1])
		}
	case site == MangaPill && len(p) == 3 && p[0] == "chapters":
		c, ok = s.mangapillReader(p[1])
	case site == Comix && len(p) == 3 && p[0] == "title" && strings.Contains(p[2], "-chapter-"):
		c, ok = s.slugReader(site, p[1], p[2][strings.Index(p[2], "-chapter-")+len("-chapter-"):], ".")
	case site == Natomanga && len(p) == 3 && p[0] == "manga" && strings.HasPrefix(p[2], "chapter-"):
		c, ok = s.slugReader(site, p[1], strings.TrimPrefix(p[2], "chapter-"), "-")
	default:
		return false
	}
	if !ok {
		http.NotFound(w, r)
		return true
	}
	writeHTML(w, http.StatusOK, readerHTML(site, c))
	return true
}

// mangapillReader reads "{id}-{code}": code is "1" + number x 1000.
func (s *Sim) mangapillReader(idCode string) (readerChapter, bool) {
	id, code, _ := strings.Cut(idCode, "-")
	i, ok := s.lookup(MangaPill, id)
	n, err := strconv.Atoi(code)
	if !ok || err != nil || len(code) != 7 || code[0] != '1' {
		return readerChapter{}, false
	}
	n -= 1000000
	num := strconv.Itoa(n / 1000)
	switch n % 1000 {
	case 0:
	case 500:
		num += ".5"
	default:
		return readerChapter{}, false
	}
	return readerChapter{x: s.series(MangaPill, i, s.behavior(MangaPill, id)), number: num}, n >= 1000
}

// slugReader reads a number written in the URL ("12", "12.5" or "12-5").
func (s *Sim) slugReader(site, id, number, sep string) (readerChapter, bool) {
	i, ok := s.lookup(site, strings.ToLower(id))
	number = strings.Replace(number, sep, ".", 1)
	if _, okN := numberKey(number); !ok || !okN {
		return readerChapter{}, false
	}
	return readerChapter{x: s.series(site, i, s.behavior(site, seriesID(site, i))), number: number}, true
}

// readerLabel is the chapter's label; on WeebCentral some Series label
// their chapters with another word.
func readerLabel(site string, c readerChapter) string {
	if c.number == "" {
		return "Special"
	}
	if site == WeebCentral && c.x.i%4 == 1 {
		return "Episode " + c.number
	}
	return "Chapter " + c.number
}

// lateRender wraps HTML that a single-page app shows only after fetching
// the chapter: it appears after ms milliseconds.
func lateRender(rootID, inner string, ms int, title string) string {
	js := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", "", "</", `<\/`).Replace(inner)
	return fmt.Sprintf(`<script>setTimeout(function () { document.getElementById('%s').innerHTML = '%s'; document.title = '%s'; }, %d);</script>`,
		rootID, js, strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(title), ms)
}

func readerHTML(site string, c readerChapter) string {
	x, label := c.x, readerLabel(site, c)
	t := html.EscapeString(x.title)
	switch site {
	case MangaDex:
		inner := fmt.Sprintf(`<div class="md--reader-wrap"><div class="reader--header"><div class="flex-grow"><div class="reader--header-title">%[3]s</div><a href="/title/%[1]s/%[2]s" class="reader--header-manga">%[4]s</a></div><div class="reader--header-meta"><div class="reader--meta chapter">%[5]s</div><div class="reader--meta page">Pg. 1 / 18</div></div></div><div class="md--reader-pages"></div></div>`,
			x.id, x.slug, html.EscapeString(label), t, strings.Replace(label, "Chapter", "Ch.", 1))
		return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>MangaDex</title></head><body><div id="__nuxt"><div class="md-content"></div><div id="app"></div></div>` +
			lateRender("app", inner, 1200, strings.Replace(label, "Chapter", "Ch.", 1)+" - "+x.title+" - MangaDex") + `</body></html>`
	case WeebCentral:
		slug := strings.ReplaceAll(x.title, " ", "-")
		return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%[2]s %[4]s | Weeb Central</title></head>
<body><main class="flex flex-col">
<section class="flex items-center gap-2 p-2" x-data="{ 'series_id': '%[1]s', 'chapter_type': '%[5]s', 'number': '%[6]s' }">
 <a href="/series/%[1]s/%[3]s" class="btn btn-ghost"><span>%[2]s</span></a>
 <button hx-get="/series/%[1]s/chapter-select" class="btn"><span>%[4]s</span></button>
</section>
<section hx-get="/chapters/images" hx-trigger="load" class="flex flex-col items-center"></section>
</main></body></html>`, x.id, t, html.EscapeString(slug), html.EscapeString(label), strings.Fields(label)[0], c.number)
	case MangaPill:
		return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%[2]s %[4]s - MangaPill</title></head>
<body><div class="container"><div class="flex flex-col items-center my-3"><h1 class="font-bold text-lg md:text-2xl">%[2]s %[4]s</h1>
<a href="/manga/%[1]s/%[3]s" class="text-sm text-secondary">%[2]s</a></div>
<chapter-page><picture><img class="js-page" data-src="/covers/%[1]s.jpeg" alt="%[2]s %[4]s - Page 1"></picture></chapter-page></div></body></html>`,
			x.id, t, x.slug, html.EscapeString(label))
	case Natomanga:
		return fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>%[2]s %[3]s - MangaNato</title>
<script>var comic_name = %[4]q; var chapter_name = %[5]q;</script></head>
<body><div class="breadcrumb"><p><span><a href="/" title="Read Manga Online">Read Manga Online</a></span> » <span><a href="/manga/%[1]s" title="%[2]s">%[2]s</a></span></p></div>
<div class="panel-chapter-info-top"><h1>%[2]s %[3]s</h1></div>
<div class="container-chapter-reader"><img src="/cover/%[1]s.jpg" alt="page 1"></div></body></html>`,
			x.id, t, html.EscapeString(label), x.title, label)
	case Comix:
		inner := fmt.Sprintf(`<div class="rpage-header"><a href="/title/%s">%s</a><span>%s</span></div><div class="rpage-body"></div>`, x.id, t, html.EscapeString(label))
		return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Comix</title></head><body><div id="app-root"></div>` +
			lateRender("app-root", inner, 800, x.title+" "+label+" | Comix") + `</body></html>`
	case Kagane:
		inner := fmt.Sprintf(`<div class="reader-header"><a href="/series/%s">%s</a><span class="chapter-title">%s</span></div><div class="reader-content"><div class="reader-page"></div></div>`, x.id, t, html.EscapeString(label))
		return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Kagane</title></head><body><div id="root"></div>` +
			lateRender("root", inner, 800, x.title+" | Kagane") + `</body></html>`
	}
	return ""
}
