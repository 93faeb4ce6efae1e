package sitesim

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// serveMangaDex stands in for both mangadex.org and its API host:
// /manga/{id}, /manga/{id}/feed (API), /title/{id}/{slug} (page),
// /covers/{id}/{file} (uploads host), /chapter/{id} (reader page, in reader_pages.go),
// /list/{id} (API, a public custom list, in mangadex_list.go).
func (s *Sim) serveMangaDex(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(p) >= 2 && p[0] == "covers" {
		serveCover(w, r)
		return
	}
	if len(p) == 2 && p[0] == "list" { // mangadex_list.go
		s.serveMangaDexList(w, p[1])
		return
	}
	api := len(p) >= 2 && p[0] == "manga" && (len(p) == 2 || (len(p) == 3 && p[2] == "feed"))
	page := len(p) >= 2 && p[0] == "title"
	if !api && !page {
		mangadexError(w, "no route matched")
		return
	}
	id := strings.ToLower(p[1])
	kind := kindJSON
	if page {
		kind = kindHTML
	}
	x, b, ok := s.open(w, r, MangaDex, id, kind, func() { mangadexError(w, "Manga with id "+id+" not found") })
	if !ok {
		return
	}
	switch {
	case page:
		writeHTML(w, http.StatusOK, fmt.Sprintf(`<!DOCTYPE html><html><head><title>%s - MangaDex</title>
<meta property="og:image" content="%s"></head><body><div id="__nuxt"></div></body></html>`,
			html.EscapeString(x.title), s.Origin(MangaDex)+"/covers/"+id+"/"+mangadexCover(x)+".512.jpg"))
	case len(p) == 2:
		writeJSON(w, http.StatusOK, mangadexManga(x))
	default:
		writeJSON(w, http.StatusOK, mangadexFeed(x, b.Mode == LayoutChanged))
	}
}

func mangadexCover(x simSeries) string { return uuidFor("cover", 4, uint64(x.i), 1) + ".jpg" }

func mangadexError(w http.ResponseWriter, detail string) {
	writeJSON(w, http.StatusNotFound, map[string]any{"result": "error", "errors": []any{map[string]any{
		"id": "9c346bb4-8e8e-4a2b-9d0a-2f8a3f6f2a11", "status": 404, "title": "not_found_http_exception", "detail": detail, "context": nil}}})
}

// mangadexManga is the manga entity. Like real untranslated titles, every
// ninth Series is titled only in romanised Japanese, and another ninth only
// in its altTitles; adapters must still find the title.
func mangadexManga(x simSeries) any {
	title := map[string]string{"en": x.title}
	alts := []map[string]string{{"ja-ro": x.title + " (romaji)"}}
	switch x.i % 9 {
	case 4:
		title = map[string]string{"ja-ro": x.title}
	case 6:
		title = map[string]string{}
		alts = []map[string]string{{"ja": "ジェネレーテッド"}, {"ja-ro": x.title}}
	}
	return map[string]any{"result": "ok", "response": "entity", "data": map[string]any{
		"id": x.id, "type": "manga",
		"attributes": map[string]any{
			"title":                        title,
			"altTitles":                    alts,
			"description":                  map[string]string{"en": "A generated Series."},
			"originalLanguage":             "ja",
			"status":                       "ongoing",
			"contentRating":                "safe",
			"latestUploadedChapter":        uuidFor("chapter", 4, uint64(x.i)<<20|uint64(x.latest), 2),
			"availableTranslatedLanguages": []string{"en"},
			"links":                        mangadexLinks(x.i), // links.go
		},
		"relationships": []any{
			map[string]any{"id": uuidFor("author", 4, uint64(x.i), 3), "type": "author"},
			map[string]any{"id": uuidFor("coverid", 4, uint64(x.i), 4), "type": "cover_art",
				"attributes": map[string]any{"fileName": mangadexCover(x), "volume": "1", "locale": "ja"}},
		},
	}}
}

// mangadexFeed answers like the real feed without its language filter:
// English rows, plus (for every seventh Series) rows in other languages
// numbered past the English Latest Chapter. Every eleventh Series is an
// officially licensed title whose English chapters are all external links
// with no pages (MANGA Plus style); they are still its Latest Chapter.
func mangadexFeed(x simSeries, changed bool) any {
	var rows []any
	row := func(id, number any, title any, lang string, at time.Time, external any, pages int) {
		attrs := map[string]any{"volume": nil, "title": title, "translatedLanguage": lang,
			"externalUrl": external, "publishAt": at.Format("2006-01-02T15:04:05+00:00"),
			"readableAt": at.Format("2006-01-02T15:04:05+00:00"), "pages": pages, "version": 1}
		if changed {
			attrs["chapterNumber"] = number
		} else {
			attrs["chapter"] = number
		}
		rows = append(rows, map[string]any{"id": id, "type": "chapter", "attributes": attrs,
			"relationships": []any{map[string]any{"id": uuidFor("group", 4, uint64(x.i), 5), "type": "scanlation_group"}}})
	}
	if hasTranslations(x) { // other translations run ahead of the English one
		for k, lang := range translationLangs {
			row(mangadexChapterID(x.i, translationKey+k), translationNumber(x, k), nil, lang,
				x.released(x.latest, true), nil, 18)
		}
	}
	licensed := x.i%11 == 3
	for _, c := range x.chapters(true) {
		var num any = c.number
		if c.whole < 0 {
			num = nil // MangaDex gives specials and oneshots a null chapter
		}
		var t any = c.name
		if c.whole >= 0 {
			t = fmt.Sprintf("Episode %s", c.number)
			if c.whole%4 == 1 {
				t = nil // untitled chapters carry a null title
			}
		}
		id := uuidFor("chapter", 4, uint64(x.i)<<20|uint64(chapterKey(c)), 2)
		if licensed {
			row(id, num, t, "en", c.at, MangaPlusOrigin+"/viewer/"+strconv.Itoa(x.i*10000+chapterKey(c)), 0)
			continue
		}
		row(id, num, t, "en", c.at, nil, 18)
	}
	return map[string]any{"result": "ok", "response": "collection", "data": rows, "limit": 100, "offset": 0, "total": len(rows)}
}

// MangaPlusOrigin is where the simulator's licensed MangaDex titles link
// their external chapters (a host nothing serves).
const MangaPlusOrigin = "https://mangaplus.invalid"
