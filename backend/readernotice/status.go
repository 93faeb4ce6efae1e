package readernotice

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/feeds"

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

// withStatusItems adds one feed entry per status line (its id the
// change's own, never reused) to the chapter entries, newest first, at
// most FeedEntries in all.
func withStatusItems(items []*feeds.Item, lines []store.StatusLine, host, base string) []*feeds.Item {
	if len(lines) == 0 {
		return items
	}
	for _, l := range lines {
		c := statusChange(l)
		if c.Title == "" {
			c.Title = l.SeriesID
		}
		items = append(items, &feeds.Item{
			Id:          "tag:" + host + ",2026:status-change/" + strconv.FormatInt(l.ChangeID, 10),
			Title:       c.Line(),
			Link:        &feeds.Link{Href: base + "/"},
			Description: c.Line(),
			Updated:     c.ChangedAt,
			Created:     c.ChangedAt,
		})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Updated.After(items[j].Updated) })
	if len(items) > FeedEntries {
		items = items[:FeedEntries]
	}
	return items
}
