package client

import (
	"context"
	"time"
)

// Me is the identity behind the token.
type Me struct {
	DiscordID string `json:"discord_id"`
	Name      string `json:"name"`
	Owner     bool   `json:"owner"`
}

// Chapter is a Series' Latest Chapter; Number is a decimal string.
type Chapter struct {
	Number string     `json:"number"`
	Title  string     `json:"title"`
	URL    string     `json:"url"`
	SeenAt *time.Time `json:"seen_at"`
}

// Progress is the furthest chapter a Reader has read of a Series.
type Progress struct {
	Number string    `json:"number"`
	URL    string    `json:"url,omitempty"`
	ReadAt time.Time `json:"read_at"`
}

// Bookmark is one of the Reader's bookmarked Series.
type Bookmark struct {
	Site     string    `json:"site"`
	SeriesID string    `json:"series_id"`
	Title    string    `json:"title"`
	URL      string    `json:"url"`
	CoverURL string    `json:"cover_url"`
	Latest   *Chapter  `json:"latest"`
	Progress *Progress `json:"progress"`
	New      bool      `json:"new"`
	// Notify is how the bookmark's New Chapters reach the Reader.
	Notify *BookmarkNotify `json:"notify,omitempty"`
	// AddedBy is "read" for a bookmark a reported read created, "reader"
	// for one the Reader added.
	AddedBy string `json:"added_by"`
	// WorkID is the Work the Series is a member of (null when none); New
	// is then the Work's: a read on any member ends it on every one.
	WorkID *int64 `json:"work_id"`
	// Status is the story's publication status (releasing, completed,
	// hiatus, cancelled, unknown; the Work's for a member of one) and
	// FinalChapter its final chapter in this Series' numbers (null when
	// none is known). State is the Reader's reading state.
	Status       string  `json:"status"`
	FinalChapter *string `json:"final_chapter"`
	State        string  `json:"state"`
	// TimeLine: checked_at, next_check_by, expected, overdue.
	TimeLine
}

// ReadingState is the body of PUT /api/bookmarks/{site}/{series_id}/state
// and PUT /api/works/{id}/state.
type ReadingState struct {
	State string `json:"state"`
}

// Preferences are a Reader's own settings (GET/PUT /api/me/preferences).
type Preferences struct {
	// AutoAddReads: a read of a Series the Reader has not bookmarked
	// creates the bookmark (default true).
	AutoAddReads bool `json:"auto_add_reads"`
}

// Read is one chapter read the userscript reports.
type Read struct {
	Site     string    `json:"site"`
	SeriesID string    `json:"series_id"`
	Number   string    `json:"number"`
	URL      string    `json:"url"`
	ReadAt   time.Time `json:"read_at"`
}

// SyncResult counts the reads applied and those ignored (older or equal),
// and lists the reads the server could not take, by index in the batch.
type SyncResult struct {
	Applied int         `json:"applied"`
	Ignored int         `json:"ignored"`
	Errors  []ReadError `json:"errors,omitempty"`
}

// ReadError is one read of a batch the server refused, and why.
type ReadError struct {
	Index int    `json:"index"`
	Error string `json:"error"`
}

// Healthz reports whether the server and its database answer. A 503 comes
// back as an *APIError.
func (c *Client) Healthz(ctx context.Context) error {
	return c.do(ctx, "GET", "/healthz", nil, nil, nil)
}

// Me returns who the token belongs to.
func (c *Client) Me(ctx context.Context) (Me, error) {
	var out Me
	err := c.do(ctx, "GET", "/api/me", nil, nil, &out)
	return out, err
}

// Bookmarks returns the Reader's bookmarks.
func (c *Client) Bookmarks(ctx context.Context) ([]Bookmark, error) {
	var out struct {
		Bookmarks []Bookmark `json:"bookmarks"`
	}
	err := c.do(ctx, "GET", "/api/bookmarks", nil, nil, &out)
	return out.Bookmarks, err
}

// AddBookmark bookmarks the Series any URL of a registered Site names.
func (c *Client) AddBookmark(ctx context.Context, url string) (Bookmark, error) {
	var out Bookmark
	err := c.do(ctx, "POST", "/api/bookmarks", nil, map[string]string{"url": url}, &out)
	return out, err
}

// RemoveBookmark removes one bookmark.
func (c *Client) RemoveBookmark(ctx context.Context, site, seriesID string) error {
	return c.do(ctx, "DELETE", "/api/bookmarks"+pathEscape(site, seriesID), nil, nil, nil)
}

// SyncProgress sends a batch of reads.
func (c *Client) SyncProgress(ctx context.Context, reads []Read) (SyncResult, error) {
	var out SyncResult
	err := c.do(ctx, "POST", "/api/progress", nil, map[string][]Read{"reads": reads}, &out)
	return out, err
}
