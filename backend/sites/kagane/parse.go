package kagane

import (
	"encoding/json"
	"errors"
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

// ErrNoBooks is returned (wrapped, with no_chapter) by ParseSeries when
// the details carry no series_books: the books are then read from
// /api/v2/series/{id}/books/list.
var ErrNoBooks = errors.New("details have no series_books")

// ParseSeries reads /api/v2/series/{id}: title, cover and, when the details
// carry series_books, the Latest Chapter. Chapter links are
// {base}/series/{id}/reader/{book_id}; covers {base}/api/v2/image/{image_id}.
// Details without series_books give no_chapter wrapping ErrNoBooks, with
// the title and cover filled.
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
		return f, sites.NoChapter, fmt.Errorf("kagane: %w", ErrNoBooks)
	}
	out, err := latest(&f, *d.Books, base, id)
	return f, out, err
}

// ParseBooks reads /api/v2/series/{id}/books/list: {"series_books": [...]}
// (keiyoushi's ChapterDto shape), {"books": [...]}, {"content": [...]} or
// a bare array of books. The returned Facts carry Latest, Rows and Skipped.
func ParseBooks(body []byte, base, id string) (sites.Facts, sites.Outcome, error) {
	var f sites.Facts
	var list []book
	if err := json.Unmarshal(body, &list); err != nil {
		var obj struct {
			SeriesBooks *[]book `json:"series_books"`
			Books       *[]book `json:"books"`
			Content     *[]book `json:"content"`
		}
		if err := json.Unmarshal(body, &obj); err != nil {
			return f, sites.Unfetchable, fmt.Errorf("kagane: books list: %w: %w", err, sites.ErrUnusable)
		}
		switch {
		case obj.SeriesBooks != nil:
			list = *obj.SeriesBooks
		case obj.Books != nil:
			list = *obj.Books
		case obj.Content != nil:
			list = *obj.Content
		default:
			return f, sites.NoChapter, fmt.Errorf("kagane: books list has no series_books, books or content")
		}
	}
	out, err := latest(&f, list, base, id)
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
