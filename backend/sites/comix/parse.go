package comix

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// manga is the detail entry of the page's query cache. The live page keys
// it ["manga","detail","{hid}"] and stores the object bare; older pages
// wrapped it in {"data": ...}.
type manga struct {
	HashID string `json:"hash_id"`
	Hid    string `json:"hid"`
	Title  string `json:"title"`
	Poster struct {
		Small  string `json:"small"`
		Medium string `json:"medium"`
		Large  string `json:"large"`
	} `json:"poster"`
}

// ParsePage reads the title and poster from the title page's
// <script id="initial-data">, a React Query cache
// {"page": ..., "queries": {"[\"manga\",\"detail\",\"{hid}\"]": {manga}}}.
// A detail entry that is null is not_found. A page without a usable cache
// gives empty facts and OK: the chapter API decides whether the read
// worked. The page holds no chapter list (the chapters come from the API).
func ParsePage(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	doc, err := dom.Parse(body)
	if err != nil {
		return f, sites.Unfetchable, fmt.Errorf("comix: page: %w: %w", err, sites.ErrUnusable)
	}
	script := dom.ByID(doc, "initial-data")
	if script == nil || !dom.Is(script, "script") || script.FirstChild == nil {
		return f, sites.OK, nil
	}
	var data struct {
		Queries map[string]json.RawMessage `json:"queries"`
	}
	if json.Unmarshal([]byte(script.FirstChild.Data), &data) != nil {
		return f, sites.OK, nil
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
		if json.Unmarshal(inner, &m) == nil {
			f.Title = strings.TrimSpace(html.UnescapeString(m.Title))
			for _, p := range []string{m.Poster.Large, m.Poster.Medium, m.Poster.Small} {
				if f.CoverURL = sites.Resolve(base, p); f.CoverURL != "" {
					break
				}
			}
		}
		break
	}
	return f, sites.OK, nil
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
