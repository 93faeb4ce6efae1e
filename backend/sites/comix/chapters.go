package comix

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

// chapter is one item of the chapter API (keiyoushi's Comix Chapter DTO).
type chapter struct {
	ChapterID json.RawMessage `json:"chapter_id"`
	Number    json.RawMessage `json:"number"`
	Name      string          `json:"name"`
	CreatedAt json.RawMessage `json:"created_at"`
}

// ParseChapters reads the chapter API's answer
// {"result": {"items": [...], "pagination": {...}}}: the item with the
// highest number is the Latest Chapter, linked as
// {base}/title/{id}/{chapter_id}-chapter-{number}. Items without a usable
// number are skipped and counted. An encrypted answer ({"e": "..."}, which
// only the Site's own page script can sign for and decode) and a body
// without result.items are no_chapter: the adapter cannot read it.
func ParseChapters(body []byte, base, id string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	var b struct {
		E      *string `json:"e"`
		Result *struct {
			Items *[]chapter `json:"items"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return f, sites.Unfetchable, fmt.Errorf("comix: chapters: %w: %w", err, sites.ErrUnusable)
	}
	if b.E != nil && b.Result == nil {
		return f, sites.NoChapter, fmt.Errorf("comix: the chapter API answered encrypted; it needs the page's own signer")
	}
	if b.Result == nil || b.Result.Items == nil {
		return f, sites.NoChapter, fmt.Errorf("comix: chapter API answer has no result.items")
	}
	items := *b.Result.Items
	f.Rows = len(items)
	var best *chapter
	bestNum := ""
	for i := range items {
		num, ok := sites.NumberFromJSON(items[i].Number)
		if !ok {
			f.Skip(sites.SkipNoNumber)
			continue
		}
		if best == nil || sites.CompareNumbers(num, bestNum) > 0 {
			best, bestNum = &items[i], num
		}
	}
	if best == nil {
		return f, sites.NoChapter, fmt.Errorf("comix: %d chapters, none with a number", len(items))
	}
	ch := &sites.Chapter{Number: bestNum, Title: sites.ChapterTitle(best.Name, bestNum), ReleasedAt: when(best.CreatedAt)}
	if cid := strings.Trim(string(best.ChapterID), `"`); cid != "" && strings.Trim(cid, "0123456789") == "" {
		ch.URL = sites.Resolve(base, "/title/"+url.PathEscape(id)+"/"+cid+"-chapter-"+bestNum)
	}
	f.Latest = ch
	return f, sites.OK, nil
}

// when reads a Unix time in seconds (or milliseconds), or an RFC 3339 string.
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
