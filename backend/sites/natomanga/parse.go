package natomanga

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

// ParsePage reads the title (h1 in ul.manga-info-text, else the first h1)
// and cover (div.manga-info-pic img or span.info-image img) of a Series
// page. A body starting "REDIRECT :" is not_found.
func ParsePage(body []byte, base string) (sites.Facts, sites.Outcome, error) {
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("REDIRECT :")) {
		return sites.Facts{}, sites.NotFound, fmt.Errorf("natomanga: the Site says the Series moved")
	}
	doc, err := dom.Parse(body)
	if err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("natomanga: page: %w: %w", err, sites.ErrUnusable)
	}
	var f sites.Facts
	info := dom.Find(doc, func(n *dom.Node) bool { return dom.Is(n, "ul") && dom.HasClass(n, "manga-info-text") })
	if info == nil {
		info = doc
	}
	if h := dom.Find(info, dom.Tag("h1")); h != nil {
		f.Title = dom.Text(h)
	}
	pic := dom.Find(doc, func(n *dom.Node) bool {
		return (dom.Is(n, "div") && dom.HasClass(n, "manga-info-pic")) || (dom.Is(n, "span") && dom.HasClass(n, "info-image"))
	})
	if img := dom.Find(pic, dom.Tag("img")); img != nil { // Find(nil) is nil
		v, _ := dom.Attr(img, "src")
		f.CoverURL = sites.Resolve(base, v)
	}
	return f, sites.OK, nil
}

type chaptersBody struct {
	Success *bool `json:"success"`
	Data    *struct {
		Chapters *[]struct {
			Name      string   `json:"chapter_name"`
			Slug      string   `json:"chapter_slug"`
			Num       *float64 `json:"chapter_num"`
			UpdatedAt string   `json:"updated_at"`
		} `json:"chapters"`
	} `json:"data"`
}

// NumberFromSlug reads the number a "chapter-12-5" slug names (12.5); other
// slugs ("s2-chapter-3", "special-2", "chapter-12-5-extra") give false.
func NumberFromSlug(slug string) (string, bool) {
	rest, ok := strings.CutPrefix(slug, "chapter-")
	if !ok {
		return "", false
	}
	whole, minor, hasMinor := strings.Cut(rest, "-")
	if hasMinor {
		return sites.ParseNumber(whole + "." + minor)
	}
	return sites.ParseNumber(whole)
}

// ParseChapters reads the chapter JSON; chapter links are
// {base}/manga/{slug}/{chapter_slug}. A row's number is the one its
// chapter slug names when the slug has the "chapter-N[-M]" form, whatever
// chapter_num says (it may be missing, or 12 for "chapter-12-5"); else
// chapter_num when positive; else the number in chapter_name.
func ParseChapters(body []byte, base, slug string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	var b chaptersBody
	if err := json.Unmarshal(body, &b); err != nil {
		return f, sites.Unfetchable, fmt.Errorf("natomanga: chapters: %w: %w", err, sites.ErrUnusable)
	}
	if b.Success != nil && !*b.Success {
		return f, sites.NotFound, fmt.Errorf("natomanga: chapter API says success false")
	}
	if b.Data == nil || b.Data.Chapters == nil {
		return f, sites.NoChapter, fmt.Errorf("natomanga: chapter JSON has no data.chapters")
	}
	f.Rows = len(*b.Data.Chapters)
	for _, c := range *b.Data.Chapters {
		num, ok := NumberFromSlug(c.Slug)
		if !ok && c.Num != nil && *c.Num > 0 {
			num, ok = sites.NumberFromFloat(*c.Num)
		}
		if !ok {
			num, ok = sites.NumberFromName(c.Name)
		}
		if !ok {
			f.Skip(sites.SkipNoNumber)
			continue
		}
		if f.Latest != nil && sites.CompareNumbers(num, f.Latest.Number) <= 0 {
			continue
		}
		ch := &sites.Chapter{Number: num, Title: sites.ChapterTitle(c.Name, num)}
		if seg, ok := sites.Segment(c.Slug); ok {
			ch.URL = sites.Resolve(base, "/manga/"+url.PathEscape(slug)+"/"+seg)
		}
		if t, err := time.Parse(time.RFC3339Nano, c.UpdatedAt); err == nil {
			ch.ReleasedAt = t.UTC()
		}
		f.Latest = ch
	}
	if f.Latest == nil {
		return f, sites.NoChapter, fmt.Errorf("natomanga: %d chapters, none with a number", len(*b.Data.Chapters))
	}
	return f, sites.OK, nil
}
