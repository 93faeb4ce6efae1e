package client

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Update is one New Chapter of the Reader's library as GET /api/updates
// shows it: a story (a Work, or a Series in none) and the chapter its
// Site showed, a Work's number once (its first sighting).
type Update struct {
	Day          string    `json:"day"` // seen_at's day, UTC: "2026-12-06"
	Site         string    `json:"site"`
	SeriesID     string    `json:"series_id"`
	WorkID       *int64    `json:"work_id"`
	Title        string    `json:"title"`         // the story's: the Work's or the Series'
	Number       string    `json:"number"`        // in the story's numbers (a Work's, with the Reader's offsets)
	SeriesNumber string    `json:"series_number"` // the Series' own number
	ChapterTitle string    `json:"chapter_title"`
	URL          string    `json:"url"`
	SeenAt       time.Time `json:"seen_at"`
	Read         bool      `json:"read"` // the Reader's Progress on the story has reached it
}

// UpdatesResponse is the body of GET /api/updates: one page, newest
// first, and the next page's cursor and path (null on the last page).
type UpdatesResponse struct {
	Updates []Update `json:"updates"`
	Next    *string  `json:"next"`
	NextURL *string  `json:"next_url"`
}

// Updates reads one page of the Reader's Updates: before is "" for the
// newest, else a page's Next; limit 0 takes the server's default.
func (c *Client) Updates(ctx context.Context, before string, limit int) (UpdatesResponse, error) {
	q := url.Values{}
	if before != "" {
		q.Set("before", before)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out UpdatesResponse
	err := c.do(ctx, "GET", "/api/updates", q, nil, &out)
	return out, err
}
