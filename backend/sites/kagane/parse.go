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

// ParseSeries reads /api/v2/series/{id}. Chapter links are
// {base}/series/{id}/reader/{book_id}; covers {base}/api/v2/image/{image_id}.
// created_at carries no zone and is read as UTC.
func ParseSeries(body []byte, base, id string) (sites.Facts, sites.Outcome, error) {
	var d details
	if err := json.Unmarshal(body, &d); err != nil {
		return sites.Facts{}, sites.Unfetchable, fmt.Errorf("kagane: details: %v: %w", err, sites.ErrUnusable)
	}
	f := sites.Facts{Title: strings.TrimSpace(d.Title)}
	if f.Title == "" {
		f.Title = strings.TrimSpace(d.Name)
	}
	if len(d.Covers) > 0 && d.Covers[0].ImageID != "" {
		f.CoverURL = sites.Resolve(base, "/api/v2/image/"+url.PathEscape(d.Covers[0].ImageID))
	}
	if d.Books == nil {
		return f, sites.NoChapter, fmt.Errorf("kagane: details have no series_books")
	}
	var best *book
	bestNum := ""
	for i := range *d.Books {
		b := &(*d.Books)[i]
		num, ok := sites.NumberFromJSON(b.ChapterNo) // a string, a number or null
		if !ok || b.SortNo == nil || math.IsNaN(*b.SortNo) || math.IsInf(*b.SortNo, 0) {
			continue
		}
		if best == nil || *b.SortNo > *best.SortNo {
			best, bestNum = b, num
		}
	}
	if best == nil {
		return f, sites.NoChapter, fmt.Errorf("kagane: %d books, none with a chapter number", len(*d.Books))
	}
	ch := &sites.Chapter{Number: bestNum, Title: sites.ChapterTitle(best.Title, bestNum)}
	if best.BookID != "" {
		ch.URL = sites.Resolve(base, "/series/"+url.PathEscape(id)+"/reader/"+url.PathEscape(best.BookID))
	}
	if t, err := time.Parse("2006-01-02T15:04:05", best.CreatedAt); err == nil {
		ch.ReleasedAt = t.UTC()
	} else if t, err := time.Parse(time.RFC3339Nano, best.CreatedAt); err == nil {
		ch.ReleasedAt = t.UTC()
	}
	f.Latest = ch
	return f, sites.OK, nil
}
