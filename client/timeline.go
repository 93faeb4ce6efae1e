package client

import "time"

// TimeLine is a Bookmark's or a Work's time line (docs/api.md, "Status,
// freshness and reading states"), flattened into either's JSON.
type TimeLine struct {
	// CheckedAt is our last read of the Series (a Work's: of the member
	// showing its Latest); null before the first.
	CheckedAt *time.Time `json:"checked_at"`
	// NextCheckBy is the latest time its Lane reads it again: the last
	// read plus the Site's Rest, or a pending Forced Poll; null before
	// the first read (it is due now).
	NextCheckBy *time.Time `json:"next_check_by"`
	// Expected is the window the next chapter is expected in; null when
	// too few chapters were seen, the story ended, or it is overdue.
	Expected *Window `json:"expected"`
	// Overdue is why nothing came past twice the usual interval:
	// "hiatus", "failing" or "quiet"; null when not overdue.
	Overdue *string `json:"overdue"`
}

// Window is a span of time, both ends included.
type Window struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}
