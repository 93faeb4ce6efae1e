package mangadex

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

type apiError struct {
	Status int    `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

type envelope struct {
	Result string     `json:"result"`
	Errors []apiError `json:"errors"`
}

// errorOutcome reads {"result":"error"} bodies: a 404 inside is not_found.
func (e envelope) errorOutcome() (sites.Outcome, error) {
	for _, x := range e.Errors {
		if x.Status == 404 {
			return sites.NotFound, fmt.Errorf("mangadex: %s", x.Detail)
		}
	}
	return sites.Unfetchable, fmt.Errorf("mangadex: API error %+v: %w", e.Errors, sites.ErrUnusable)
}

type mangaBody struct {
	envelope
	Data *struct {
		ID         string `json:"id"`
		Attributes struct {
			Title map[string]string `json:"title"`
			// AltTitles and Links are read leniently (links.go): a
			// value of the wrong type drops that value, never the read.
			AltTitles json.RawMessage `json:"altTitles"`
			Links     json.RawMessage `json:"links"`
			// Status and LastChapter are read leniently too (status.go):
			// a wrong type is no status, never a failed read.
			Status      json.RawMessage `json:"status"`
			LastChapter json.RawMessage `json:"lastChapter"`
		} `json:"attributes"`
		Relationships []struct {
			Type       string `json:"type"`
			Attributes *struct {
				FileName string `json:"fileName"`
			} `json:"attributes"`
		} `json:"relationships"`
	} `json:"data"`
}

// ParseManga reads the title and cover from a /manga/{id}?includes[]=cover_art
// body. Covers point at {uploads}/covers/{id}/{fileName}.512.jpg. It also
// reads the Series' external ids (its attributes.links and its own id) and
// its alternative titles (links.go).
func ParseManga(body []byte, id, uploads string) (sites.Facts, sites.Outcome, error) {
	var m mangaBody
	if err := json.Unmarshal(body, &m); err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("mangadex: manga: %w: %w", err, sites.ErrUnusable)
	}
	if m.Result == "error" {
		out, err := m.errorOutcome()
		return sites.Facts{}, out, err
	}
	if m.Data == nil {
		return sites.Facts{}, sites.NoChapter, fmt.Errorf("mangadex: manga body has no data")
	}
	f := sites.Facts{Title: pickTitle(m.Data.Attributes.Title)}
	alts := altTitles(m.Data.Attributes.AltTitles)
	if f.Title == "" { // untitled in every language: the alternative titles
		byLang := map[string]string{}
		for _, alt := range alts {
			if _, seen := byLang[alt.lang]; !seen {
				byLang[alt.lang] = alt.title
			}
		}
		f.Title = pickTitle(byLang)
	}
	for _, alt := range alts {
		if !f.AddAltTitle(alt.title) {
			break
		}
	}
	f.IDs = links(m.Data.Attributes.Links, id)
	f.Status, f.FinalChapter = status(m.Data.Attributes.Status, m.Data.Attributes.LastChapter)
	for _, r := range m.Data.Relationships {
		if r.Type == "cover_art" && r.Attributes != nil {
			fn := r.Attributes.FileName
			if fn != "" && !strings.ContainsAny(fn, "/?#\\") {
				f.CoverURL = sites.Resolve(uploads, "/covers/"+url.PathEscape(id)+"/"+url.PathEscape(fn)+".512.jpg")
			}
			break
		}
	}
	return f, sites.OK, nil
}

// pickTitle prefers English, then romanised Japanese, then any language
// (alphabetically by code, so the choice is stable).
func pickTitle(t map[string]string) string {
	for _, k := range []string{"en", "ja-ro"} {
		if v := strings.TrimSpace(t[k]); v != "" {
			return v
		}
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := strings.TrimSpace(t[k]); v != "" {
			return v
		}
	}
	return ""
}

type feedBody struct {
	envelope
	Data []struct {
		ID         string `json:"id"`
		Attributes struct {
			Chapter     *string `json:"chapter"`
			Title       *string `json:"title"` // null when the chapter has no name
			Language    string  `json:"translatedLanguage"`
			ExternalURL *string `json:"externalUrl"`
			Pages       int     `json:"pages"`
			PublishAt   string  `json:"publishAt"`
		} `json:"attributes"`
	} `json:"data"`
}

// Language is the translation the feed asks for and the parser keeps.
const Language = "en"

// ParseFeed picks the Latest Chapter from a /manga/{id}/feed body: the
// highest-numbered English row. A row hosted elsewhere (pages 0 and
// externalUrl set: MANGA Plus, VIZ) counts, linked to its external URL;
// others link to {site}/chapter/{id}. Rows in another language (a feed
// answered without the filter), without a number, or with neither pages
// nor an external link are skipped and counted. An empty body (HTTP 204)
// or a feed without a usable row is no_chapter.
func ParseFeed(body []byte, site string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	if len(strings.TrimSpace(string(body))) == 0 {
		return f, sites.NoChapter, fmt.Errorf("mangadex: empty feed")
	}
	var fb feedBody
	if err := json.Unmarshal(body, &fb); err != nil {
		return f, sites.Unfetchable, fmt.Errorf("mangadex: feed: %w: %w", err, sites.ErrUnusable)
	}
	if fb.Result == "error" {
		out, err := fb.errorOutcome()
		return f, out, err
	}
	f.Rows = len(fb.Data)
	for _, row := range fb.Data {
		a := row.Attributes
		if lang := strings.ToLower(a.Language); lang != Language && !strings.HasPrefix(lang, Language+"-") {
			f.Skip(sites.SkipOtherLanguage)
			continue
		}
		num, ok := "", a.Chapter != nil
		if ok {
			num, ok = sites.ParseNumber(*a.Chapter)
		}
		if !ok {
			f.Skip(sites.SkipNoNumber)
			continue
		}
		link := ""
		switch {
		case a.ExternalURL != nil && *a.ExternalURL != "":
			link = sites.Resolve(*a.ExternalURL, *a.ExternalURL) // absolute http(s) only
		case a.Pages > 0 && uuidRe.MatchString(row.ID):
			link = sites.Resolve(site, "/chapter/"+row.ID)
		}
		if link == "" {
			f.Skip(sites.SkipNoLink)
			continue
		}
		if f.Latest != nil && sites.CompareNumbers(num, f.Latest.Number) <= 0 {
			continue
		}
		title := ""
		if a.Title != nil {
			title = *a.Title
		}
		ch := &sites.Chapter{Number: num, Title: sites.ChapterTitle(title, num), URL: link}
		if t, err := time.Parse(time.RFC3339, a.PublishAt); err == nil {
			ch.ReleasedAt = t.UTC()
		}
		f.Latest = ch
	}
	if f.Latest == nil {
		return f, sites.NoChapter, fmt.Errorf("mangadex: feed has %d rows, none an English chapter with a number", len(fb.Data))
	}
	return f, sites.OK, nil
}
