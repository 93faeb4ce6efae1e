package comix

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// manga is the detail entry of the page's query cache. The live page keys
// it ["manga","detail","{hid}"] and stores the object bare, camelCase, with
// the Site's own Latest Chapter aggregate; older pages wrapped it in
// {"data": ...} and spelled the id hash_id.
type manga struct {
	HashID string `json:"hash_id"`
	Hid    string `json:"hid"`
	Title  string `json:"title"`
	Poster struct {
		Small  string `json:"small"`
		Medium string `json:"medium"`
		Large  string `json:"large"`
	} `json:"poster"`
	LatestChapter    json.RawMessage `json:"latestChapter"`
	LatestChapterURL string          `json:"latestChapterUrl"`
	UpdatedAgo       string          `json:"chapterUpdatedAtFormatted"`
	HasChapters      *bool           `json:"hasChapters"`
	// AltTitles and Links are read leniently (links.go): a value of the
	// wrong type drops that value, never the read.
	AltTitles json.RawMessage `json:"altTitles"`
	Links     json.RawMessage `json:"links"`
	// Status and FinalChapter (camelCase on the page, snake_case in the
	// older cache) are read leniently (status.go).
	Status            json.RawMessage `json:"status"`
	FinalChapter      json.RawMessage `json:"finalChapter"`
	FinalChapterSnake json.RawMessage `json:"final_chapter"`
}

// chapterPath is the only shape of latestChapterUrl that becomes a link:
// a path /title/{hid}-{slug}/{chapter id}-chapter-{number} on the Site.
// Anything else (a scheme, a host, "//", "..", an encoded slash, a query)
// leaves the Latest Chapter without a link.
var chapterPath = regexp.MustCompile(`^/title/([a-z0-9]{3,16})(-[a-z0-9-]{0,200})?/[0-9]{1,12}-chapter-([0-9]{1,6}(?:\.[0-9]{1,3})?)$`)

// ParsePage reads the title page's <script id="initial-data">, a React
// Query cache {"page": ..., "queries": {"[\"manga\",\"detail\",\"{hid}\"]":
// {manga}}}: the title and poster, and the Latest Chapter from the Site's
// own aggregate fields latestChapter (the number), latestChapterUrl (its
// path, made absolute on base), chapterUpdatedAtFormatted (a relative time
// such as "9h ago", read against now) and hasChapters. A null detail entry
// is not_found. A page without a usable cache or detail, a detail with
// hasChapters false, or no usable number is no_chapter. The detail's links
// and altTitles become the Series' external ids and alternative titles
// (links.go).
func ParsePage(body []byte, base string, now time.Time) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	doc, err := dom.Parse(body)
	if err != nil {
		return f, sites.Unfetchable, fmt.Errorf("comix: page: %w: %w", err, sites.ErrUnusable)
	}
	script := dom.ByID(doc, "initial-data")
	if script == nil || !dom.Is(script, "script") || script.FirstChild == nil {
		return f, sites.NoChapter, fmt.Errorf("comix: the title page has no initial-data script; its layout changed")
	}
	var data struct {
		Queries map[string]json.RawMessage `json:"queries"`
	}
	if json.Unmarshal([]byte(script.FirstChild.Data), &data) != nil {
		return f, sites.NoChapter, fmt.Errorf("comix: the title page's initial-data is not the query cache it was")
	}
	for key, raw := range data.Queries {
		if !isDetailKey(key) {
			continue
		}
		inner := unwrap(raw)
		if string(inner) == "null" {
			return f, sites.NotFound, fmt.Errorf("comix: the page's manga detail is null")
		}
		var m manga
		if err := json.Unmarshal(inner, &m); err != nil {
			return f, sites.NoChapter, fmt.Errorf("comix: the page's manga detail: %w", err)
		}
		f.Title = strings.TrimSpace(html.UnescapeString(m.Title))
		for _, p := range []string{m.Poster.Large, m.Poster.Medium, m.Poster.Small} {
			if f.CoverURL = sites.Resolve(base, p); f.CoverURL != "" {
				break
			}
		}
		f.IDs = links(m.Links)
		altTitles(&f, m.AltTitles)
		f.Status, f.FinalChapter = status(m)
		return latest(f, m, base, now)
	}
	return f, sites.NoChapter, fmt.Errorf("comix: the title page's query cache has no manga detail")
}

// latest fills in the Latest Chapter from the detail's aggregate fields.
func latest(f sites.Facts, m manga, base string, now time.Time) (sites.Facts, sites.Outcome, error) {
	if m.HasChapters != nil && !*m.HasChapters {
		return f, sites.NoChapter, fmt.Errorf("comix: the Site lists no chapters for this Series (hasChapters false)")
	}
	if len(m.LatestChapter) == 0 {
		return f, sites.NoChapter, fmt.Errorf("comix: the manga detail has no latestChapter; the page changed")
	}
	f.Rows = 1
	num, ok := sites.NumberFromJSON(m.LatestChapter)
	if !ok {
		f.Skip(sites.SkipNoNumber)
		return f, sites.NoChapter, fmt.Errorf("comix: latestChapter %.40s is not a chapter number", m.LatestChapter)
	}
	link := chapterLink(m, num, base)
	if num == "0" && link == "" {
		// latestChapter 0 is also what a Series without chapters shows.
		return f, sites.NoChapter, fmt.Errorf("comix: latestChapter is 0 with no chapter link")
	}
	f.Latest = &sites.Chapter{Number: num, Title: sites.ChapterTitle("", num), URL: link, ReleasedAt: ago(m.UpdatedAgo, now)}
	return f, sites.OK, nil
}

// chapterLink is base + latestChapterUrl when that is a chapter path of
// this same Series (its hid, when the detail names one) for the same
// number; otherwise "".
func chapterLink(m manga, num, base string) string {
	g := chapterPath.FindStringSubmatch(m.LatestChapterURL)
	if g == nil {
		return ""
	}
	hid := m.Hid
	if hid == "" {
		hid = m.HashID
	}
	if (hid != "" && g[1] != strings.ToLower(hid)) || sites.CompareNumbers(g[3], num) != 0 {
		return ""
	}
	return sites.Resolve(base, m.LatestChapterURL)
}

// isDetailKey matches the cache key ["manga","detail",...].
func isDetailKey(key string) bool {
	var parts []json.RawMessage
	if json.Unmarshal([]byte(key), &parts) != nil || len(parts) < 2 {
		return strings.Contains(key, "detail")
	}
	var a, b string
	return json.Unmarshal(parts[0], &a) == nil && json.Unmarshal(parts[1], &b) == nil && a == "manga" && b == "detail"
}

// unwrap strips a {"data": ...} or {"result": ...} envelope.
func unwrap(raw json.RawMessage) json.RawMessage {
	for i := 0; i < 3; i++ {
		var env map[string]json.RawMessage
		if json.Unmarshal(raw, &env) != nil {
			return raw
		}
		next, ok := env["data"]
		if !ok {
			next, ok = env["result"]
		}
		if !ok {
			return raw
		}
		raw = next
	}
	return raw
}
