package client

import "time"

// ExternalID is a Series' id in a public catalogue: Kind is al, mal, mu
// (MangaUpdates' API number), mu_legacy (a pre-2022 MangaUpdates id), kt,
// md or mb; Value its canonical form. Source says whose word it is, as the caller sees it: site
// or crosswalk (shared ids, which link for every Reader), mine (the
// caller's own, named, imported or synced) or another_reader (never who).
type ExternalID struct {
	Kind   string `json:"kind"`
	Value  string `json:"value"`
	Source string `json:"source,omitempty"`
}

// Suggestion is a stored Series whose titles look like this one's: only
// ever a suggestion, with its Latest so a Reader can judge before linking.
type Suggestion struct {
	Site     string   `json:"site"`
	SeriesID string   `json:"series_id"`
	Title    string   `json:"title"`
	URL      string   `json:"url"`
	Latest   *Chapter `json:"latest"`
	Reason   string   `json:"reason"`
}

// SeriesCard is the body of GET /api/series/{site}/{series_id}.
type SeriesCard struct {
	Site        string       `json:"site"`
	SeriesID    string       `json:"series_id"`
	Title       string       `json:"title"`
	URL         string       `json:"url"`
	IDs         []ExternalID `json:"ids"`
	WorkID      *int64       `json:"work_id"`
	Suggestions []Suggestion `json:"suggestions"`
}

// WorkLatest is where a Work's Latest Chapter was seen; Number is in the
// Work's numbers (the member's plus its offset).
type WorkLatest struct {
	Number   string     `json:"number"`
	Site     string     `json:"site"`
	SeriesID string     `json:"series_id"`
	URL      string     `json:"url"`
	SeenAt   *time.Time `json:"seen_at"`
}

// WorkProgress is a Reader's Progress on a Work, in the Work's numbers.
type WorkProgress struct {
	Number string     `json:"number"`
	ReadAt *time.Time `json:"read_at"`
}

// MemberFailing is a member whose reads have failed for over a day.
type MemberFailing struct {
	Outcome string    `json:"outcome"`
	Since   time.Time `json:"since"`
}

// WorkMember is one Series of a Work. LinkedBy is "id:<kind>" or
// "reader"; Offset added to its numbers gives the Work's; DriftSince is
// set while its Latest stands well above the others' (it then tells
// nothing after a day).
type WorkMember struct {
	Site       string         `json:"site"`
	SeriesID   string         `json:"series_id"`
	Title      string         `json:"title"`
	URL        string         `json:"url"`
	Latest     *Chapter       `json:"latest"`
	Offset     string         `json:"offset"`
	LinkedBy   string         `json:"linked_by"`
	Failing    *MemberFailing `json:"failing"`
	DriftSince *time.Time     `json:"drift_since"`
	// Pending: the Reader's own hand link, holding in their library only
	// until another Reader links the same.
	Pending bool `json:"pending"`
}

// Work is one story on several Sites (GET /api/works/{id}).
type Work struct {
	ID       int64         `json:"id"`
	Title    string        `json:"title"`
	Latest   *WorkLatest   `json:"latest"`
	Progress *WorkProgress `json:"progress"`
	New      bool          `json:"new"`
	Members  []WorkMember  `json:"members"`
	// Offer is a member to follow instead, when every member the Reader
	// bookmarks has failed for over a day; null otherwise.
	Offer *WorkMember `json:"offer"`
	// Prefer is the Reader's preferred Site for the Work's notices (an
	// addition beyond the contract: PUT /api/works/{id}/prefer); absent
	// when none.
	Prefer *WorkPrefer `json:"prefer,omitempty"`
	// TimeLine: checked_at, next_check_by, expected, overdue.
	TimeLine
	// Status, FinalChapter (in Work numbers; null when none is known) and
	// State are as a Bookmark's.
	Status       string  `json:"status"`
	FinalChapter *string `json:"final_chapter"`
	State        string  `json:"state"`
}

// WorkPrefer is the body of PUT /api/works/{id}/prefer and the Work's
// "prefer": hold a notice of a number another member shows first up to
// HoldMinutes (1..1440, default 60) for the member on Site. An empty
// Site clears it.
type WorkPrefer struct {
	Site        string `json:"site"`
	HoldMinutes int    `json:"hold_minutes"`
}

// WorkFollow is the body of POST /api/works/{id}/follow: bookmark this
// member instead, Progress carried by number.
type WorkFollow struct {
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
}

// WorksResponse is the body of GET /api/works.
type WorksResponse struct {
	Works []Work `json:"works"`
}

// SeriesRef names one Series.
type SeriesRef struct {
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
}

// WorkLink is the body of POST /api/works/link.
type WorkLink struct {
	A SeriesRef `json:"a"`
	B SeriesRef `json:"b"`
}
