package sitesim

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The simulator answers in the real Sites' shapes (see the package doc),
// checked here on the raw documents, without any adapter.
func TestServesRealShapes(t *testing.T) {
	t.Parallel()
	sim := mustNew(t, Config{SeriesPerSite: 40})

	// WeebCentral: label words by Series, an Epilogue row, links on the
	// real host.
	wc := sim.Handler(WeebCentral)
	labels := regexp.MustCompile(`<span class="">([^<]*)</span>`)
	hrefs := regexp.MustCompile(`href="([^"]*)/chapters/`)
	for i, word := range []string{"Chapter", "Episode", "Navigation", "Suggestion"} {
		body := get(t, wc, "/series/"+seriesID(WeebCentral, i)+"/full-chapter-list", nil).Body.String()
		rows := labels.FindAllStringSubmatch(body, -1)
		if len(rows) < 2 {
			t.Fatalf("weebcentral %d: %d rows", i, len(rows))
		}
		first := rows[0][1]
		if i == 1 {
			if first != "Epilogue" {
				t.Errorf("weebcentral 1: first row %q, want Epilogue", first)
			}
			first = rows[1][1]
		}
		if !strings.HasPrefix(first, word+" ") {
			t.Errorf("weebcentral %d: first numbered row %q, want word %s", i, first, word)
		}
		for _, h := range hrefs.FindAllStringSubmatch(body, -1) {
			if h[1] != WeebCentralPublic {
				t.Fatalf("weebcentral %d: chapter link on %q", i, h[1])
			}
		}
	}

	// WeebCentral: a Series that does not exist answers 307 to /404, and
	// /404 answers 200.
	wc = sim.Handler(WeebCentral)
	if rec := get(t, wc, "/series/01J76XYCERXE60T7FKXVCCAQ0Z/full-chapter-list", nil); rec.Code != http.StatusTemporaryRedirect || rec.Header().Get("Location") != "/404" {
		t.Errorf("weebcentral unknown Series: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get(t, wc, "/404", nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "404") {
		t.Errorf("weebcentral /404: %d", rec.Code)
	}

	// Comix: the page's cache holds the bare camelCase detail with the
	// Site's Latest Chapter aggregate, as the 2026-10-06 capture does; the
	// retired chapter API answers 404; a WAF Series goes to /@waf/.
	cx := sim.Handler(Comix)
	id := seriesID(Comix, 3)
	rec := get(t, cx, "/title/"+id, nil)
	page := rec.Body.String()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="initial-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("comix: no initial-data")
	}
	var cache struct {
		Page    string                     `json:"page"`
		Queries map[string]json.RawMessage `json:"queries"`
	}
	if err := json.Unmarshal([]byte(m[1]), &cache); err != nil {
		t.Fatal(err)
	}
	hid, _, _ := strings.Cut(id, "-")
	var detail map[string]any
	if err := json.Unmarshal(cache.Queries[`["manga","detail","`+hid+`"]`], &detail); err != nil || detail["hid"] != hid || cache.Page != "manga" ||
		detail["hasChapters"] != true || detail["latestChapter"] == nil || detail["chapterUpdatedAtFormatted"] == nil ||
		!strings.HasPrefix(detail["latestChapterUrl"].(string), "/title/"+id+"/") {
		t.Errorf("comix cache %s: detail %v, %v", m[1], detail, err)
	}
	if d, err := http.ParseTime(rec.Header().Get("Date")); err != nil || !d.Equal(sim.cfg.Now().UTC().Truncate(time.Second)) {
		t.Errorf("comix Date %q is not the simulator's clock (%v)", rec.Header().Get("Date"), err)
	}
	for k := range cache.Queries {
		if strings.Contains(k, "chapters") {
			t.Errorf("comix cache holds a chapter list %s", k)
		}
	}
	for _, p := range []string{"/api/v2/manga/" + hid + "/chapters?order[number]=desc&limit=100&page=1", "/api/v1/manga/" + hid + "/chapters"} {
		if rec := get(t, cx, p, nil); rec.Code != 404 {
			t.Errorf("comix chapter API %s: %d, want the retired API's 404", p, rec.Code)
		}
	}
	sim.SetSeries(Comix, id, Behavior{WAF: true})
	if rec := get(t, cx, "/title/"+id, nil); rec.Code != http.StatusFound || !strings.HasPrefix(rec.Header().Get("Location"), "/@waf/challenge?return=") {
		t.Errorf("comix WAF: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get(t, cx, "/@waf/challenge", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), "<title>Security check</title>") {
		t.Errorf("comix WAF page: %d %s", rec.Code, rec.Body.String())
	}
	sim.ClearSeries(Comix, id)

	// Kagane: the details carry series_books; there is no books list.
	kg := sim.Handler(Kagane)
	for i := 0; i < 4; i++ {
		var d map[string]json.RawMessage
		kid := seriesID(Kagane, i)
		_ = json.Unmarshal(get(t, kg, "/api/v2/series/"+kid, nil).Body.Bytes(), &d)
		if _, has := d["series_books"]; !has {
			t.Errorf("kagane %d: no series_books", i)
		}
		if rec := get(t, kg, "/api/v2/series/"+kid+"/books/list", nil); rec.Code != http.StatusNotFound {
			t.Errorf("kagane %d: books list answered %d", i, rec.Code)
		}
	}

	// Natomanga: slug-only rows, and a chapter_num that disagrees with the
	// slug on half chapters.
	nm := sim.Handler(Natomanga)
	var ch struct {
		Data struct {
			Chapters []map[string]any `json:"chapters"`
		} `json:"data"`
	}
	_ = json.Unmarshal(get(t, nm, "/api/manga/"+seriesID(Natomanga, 1)+"/chapters", nil).Body.Bytes(), &ch)
	if len(ch.Data.Chapters) == 0 || ch.Data.Chapters[0]["chapter_num"] != nil || ch.Data.Chapters[0]["chapter_slug"] == nil {
		t.Errorf("natomanga 1: rows %v", ch.Data.Chapters)
	}
	_ = json.Unmarshal(get(t, nm, "/api/manga/"+seriesID(Natomanga, 5)+"/chapters", nil).Body.Bytes(), &ch)
	if top := ch.Data.Chapters[0]; !strings.HasSuffix(top["chapter_slug"].(string), "-5") || top["chapter_num"] != float64(sim.series(Natomanga, 5, Behavior{}).latest) {
		t.Errorf("natomanga 5: top row %v", top)
	}

	// MangaDex: a licensed Series' English rows are external with no
	// pages; another's feed mixes languages.
	md := sim.Handler(MangaDex)
	var feed struct {
		Data []struct {
			Attributes map[string]any `json:"attributes"`
		} `json:"data"`
	}
	_ = json.Unmarshal(get(t, md, "/manga/"+seriesID(MangaDex, 3)+"/feed", nil).Body.Bytes(), &feed)
	for _, r := range feed.Data {
		if r.Attributes["pages"] != float64(0) || !strings.HasPrefix(r.Attributes["externalUrl"].(string), MangaPlusOrigin) {
			t.Fatalf("mangadex 3: row %v", r.Attributes)
		}
	}
	_ = json.Unmarshal(get(t, md, "/manga/"+seriesID(MangaDex, 2)+"/feed", nil).Body.Bytes(), &feed)
	langs := map[any]bool{}
	for _, r := range feed.Data {
		langs[r.Attributes["translatedLanguage"]] = true
	}
	if len(langs) < 4 || !langs["en"] {
		t.Errorf("mangadex 2: languages %v", langs)
	}
}
