package sites

import "strings"

// Publication statuses of a story (Facts.Status, docs/CONTEXT.md "Status").
// A Site's own words are mapped onto these five; "" is a page that carries
// no status at all, which keeps whatever was stored.
const (
	StatusReleasing = "releasing"
	StatusCompleted = "completed"
	StatusHiatus    = "hiatus"
	StatusCancelled = "cancelled"
	StatusUnknown   = "unknown"
)

// StatusWord maps a Site's status word onto ours. The words are those the
// public clients name (docs: docs/sources.md ("Status and time") §2, §3):
// MangaDex's ongoing, completed, hiatus, cancelled; Comix's releasing,
// on_hiatus, finished, discontinued. Any other non-empty word is unknown,
// never an error: a new word must not fail a read.
func StatusWord(word string) string {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "":
		return ""
	case "ongoing", "releasing", "publishing":
		return StatusReleasing
	case "completed", "finished":
		return StatusCompleted
	case "hiatus", "on_hiatus", "on hiatus":
		return StatusHiatus
	case "cancelled", "canceled", "discontinued":
		return StatusCancelled
	}
	return StatusUnknown
}
