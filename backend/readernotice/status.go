package readernotice

import (
	"fmt"
	"strings"
	"time"

	"mangabookmark/backend/store"
)

// StatusChange is one status change of a story the Reader follows, told
// once (docs/adr/0031-status-and-reading-states.md): completed, hiatus,
// cancelled, or releasing again.
type StatusChange struct {
	WorkID       *int64    `json:"work_id,omitempty"`
	Site         string    `json:"site"`
	SeriesID     string    `json:"series_id"`
	Title        string    `json:"title"`
	Status       string    `json:"status"`
	Was          string    `json:"was"`
	FinalChapter string    `json:"final_chapter,omitempty"`
	ChangedAt    time.Time `json:"changed_at"`
}

// statusChange is a store status line as a Digest carries it.
func statusChange(l store.StatusLine) StatusChange {
	return StatusChange{WorkID: l.WorkID, Site: l.Site, SeriesID: l.SeriesID, Title: l.Title, Status: l.Status,
		Was: l.Was, FinalChapter: l.FinalChapter, ChangedAt: l.ChangedAt.UTC()}
}

// Line is the change in one sentence: "Title is completed (final chapter
// 187).", "Title is on hiatus.", "Title is releasing again.".
func (c StatusChange) Line() string {
	switch c.Status {
	case store.StatusCompleted:
		if c.FinalChapter != "" {
			return fmt.Sprintf("%s is completed (final chapter %s).", c.Title, c.FinalChapter)
		}
		return c.Title + " is completed."
	case store.StatusHiatus:
		return c.Title + " is on hiatus."
	case store.StatusCancelled:
		return c.Title + " is cancelled."
	case store.StatusReleasing:
		return c.Title + " is releasing again."
	}
	return c.Title + " is now " + c.Status + "."
}

// StatusText is one line per status change, "" when there is none.
func (d Digest) StatusText() string {
	var b strings.Builder
	for _, c := range d.Status {
		b.WriteString(c.Line())
		b.WriteByte('\n')
	}
	return b.String()
}
