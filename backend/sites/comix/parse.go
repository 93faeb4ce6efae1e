package comix

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

type manga struct {
	Hid    string `json:"hid"`
	Title  string `json:"title"`
	Poster struct {
		Small  string `json:"small"`
		Medium string `json:"medium"`
		Large  string `json:"large"`
	} `json:"poster"`
}

type item struct {
	ID        json.RawMessage `json:"id"`
	Number    json.RawMessage `json:"number"`
	Name      string          `json:"name"`
	URL       string          `json:"url"`
	CreatedAt json.RawMessage `json:"createdAt"`
}

// ParsePage reads the initial-data JSON of a title page. A page without it
// (or without a chapter entry) is no_chapter; a details entry whose data is
// null is not_found.
func ParsePage(body []byte, base, id string) (sites.Facts, sites.Outcome, error) {
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("comix: page: %v: %w", err, sites.ErrUnusable)
	}
	script := dom.ByID(doc, "initial-data")
	if script == nil || !dom.Is(script, "script") || script.FirstChild == nil {
		return sites.Facts{}, sites.NoChapter, fmt.Errorf("comix: page has no initial-data script")
	}
	var data struct {
		Queries map[string]json.RawMessage `json:"queries"`
	}
	if err := json.Unmarshal([]byte(script.FirstChild.Data), &data); err != nil {
		return sites.Facts{}, sites.NoChapter, fmt.Errorf("comix: initial-data does not decode: %v", err)
	}
	var f sites.Facts
	var items []item
	foundList := false
	for key, raw := range data.Queries {
		switch {
		case strings.Contains(key, "detail"):
			inner := unwrap(raw)
			if string(inner) == "null" {
				return f, sites.NotFound, fmt.Errorf("comix: details entry is empty")
			}
			var m manga
			if json.Unmarshal(inner, &m) == nil {
				f.Title = strings.TrimSpace(html.UnescapeString(m.Title))
				for _, p := range []string{m.Poster.Large, m.Poster.Medium, m.Poster.Small} {
					if f.CoverURL = sites.Resolve(base, p); f.CoverURL != "" {
						break
					}
				}
			}
		case strings.Contains(key, "chapters"):
			if list, ok := itemsOf(unwrap(raw)); ok {
				items, foundList = append(items, list...), true
			}
		}
	}
	if !foundList {
		return f, sites.NoChapter, fmt.Errorf("comix: initial-data has no chapter list")
	}
	var best *item
	bestNum := ""
	for i := range items {
		num, ok := sites.NumberFromJSON(items[i].Number)
		if !ok {
			continue
		}
		if best == nil || sites.CompareNumbers(num, bestNum) > 0 {
			best, bestNum = &items[i], num
		}
	}
	if best == nil {
		return f, sites.NoChapter, fmt.Errorf("comix: %d chapters, none with a number", len(items))
	}
	ch := &sites.Chapter{Number: bestNum, Title: sites.ChapterTitle(best.Name, bestNum)}
	ch.URL = sites.Resolve(base, best.URL)
	if ch.URL == "" {
		if cid := strings.Trim(string(best.ID), `"`); cid != "" && strings.Trim(cid, "0123456789") == "" {
			ch.URL = sites.Resolve(base, "/title/"+url.PathEscape(id)+"/"+cid+"-chapter-"+bestNum)
		}
	}
	ch.ReleasedAt = when(best.CreatedAt)
	f.Latest = ch
	return f, sites.OK, nil
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

// itemsOf reads a chapter list: an array, or an object with "items".
func itemsOf(raw json.RawMessage) ([]item, bool) {
	var list []item
	if json.Unmarshal(raw, &list) == nil {
		return list, true
	}
	var obj struct {
		Items *[]item `json:"items"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Items != nil {
		return *obj.Items, true
	}
	return nil, false
}

func when(raw json.RawMessage) time.Time {
	var n int64
	if json.Unmarshal(raw, &n) == nil && n > 0 && n < 1<<40 {
		if n > 1e12 { // milliseconds
			n /= 1000
		}
		return time.Unix(n, 0).UTC()
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC()
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 && n < 1e11 {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Time{}
}
