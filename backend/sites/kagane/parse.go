package kagane

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

type book struct {
	BookID    string          `json:"book_id"`
	Title     string          `json:"title"`
	CreatedAt string          `json:"created_at"`
	SortNo    *float64        `json:"sort_no"`
	ChapterNo json.RawMessage `json:"chapter_no"`
}

type details struct {
	Title  string `json:"title"`
	Name   string `json:"name"`
	Covers []struct {
		ImageID string `json:"image_id"`
	} `json:"series_covers"`
	Books *[]book `json:"series_books"`
}

// ParseSeries reads /api/v2/series/{id}: title, cover and the Latest
// Chapter from series_books. Chapter links are
// {base}/series/{id}/reader/{book_id}; covers {base}/api/v2/image/{image_id}.
// Details without series_books are read as an empty list, as keiyoushi's
// DetailsDto defaults it: no_chapter, with the title and cover filled.
func ParseSeries(body []byte, base, id string) (sites.Facts, sites.Outcome, error) {
	var d details
	if err := json.Unmarshal(body, &d); err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("kagane: details: %w: %w", err, sites.ErrUnusable)
	}
	f := sites.Facts{Title: strings.TrimSpace(d.Title)}
	if f.Title == "" {
		f.Title = strings.TrimSpace(d.Name)
	}
	if len(d.Covers) > 0 {
		if seg, ok := sites.Segment(d.Covers[0].ImageID); ok {
			f.CoverURL = sites.Resolve(base, "/api/v2/image/"+seg)
		}
	}
	if d.Books == nil {
		return f, sites.NoChapter, fmt.Errorf("kagane: the details carry no series_books; the API changed")
	}
	out, err := latest(&f, *d.Books, base, id)
	return f, out, err
}

// latest picks, among books with a chapter number (chapter_no, else the
// number in the title), the one with the highest sort_no.
func latest(f *sites.Facts, books []book, base, id string) (sites.Outcome, error) {
	f.Rows = len(books)
	var best *book
	bestNum := ""
	for i := range books {
		b := &books[i]
		num, ok := sites.NumberFromJSON(b.ChapterNo) // a string, a number or null
		if !ok && (len(b.ChapterNo) == 0 || string(b.ChapterNo) == "null") {
			num, ok = sites.NumberFromName(b.Title)
		}
		if !ok || b.SortNo == nil || math.IsNaN(*b.SortNo) || math.IsInf(*b.SortNo, 0) {
			f.Skip(sites.SkipNoNumber)
			continue
		}
		if best == nil || *b.SortNo > *best.SortNo {
			best, bestNum = b, num
		}
	}
	if best == nil {
		return sites.NoChapter, fmt.Errorf("kagane: %d books, none with a chapter number", len(books))
	}
	ch := &sites.Chapter{Number: bestNum, Title: sites.ChapterTitle(best.Title, bestNum)}
	if seg, ok := sites.Segment(best.BookID); ok {
		ch.URL = sites.Resolve(base, "/series/"+url.PathEscape(id)+"/reader/"+seg)
	}
	if t, err := time.Parse("2006-01-02T15:04:05", best.CreatedAt); err == nil {
		ch.ReleasedAt = t.UTC()
	} else if t, err := time.Parse(time.RFC3339Nano, best.CreatedAt); err == nil {
		ch.ReleasedAt = t.UTC()
	}
	f.Latest = ch
	return sites.OK, nil
}
