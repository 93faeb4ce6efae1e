package client

import "time"

// Import is one of a Reader's imports (POST /api/imports, GET
// /api/imports/{id}). Waiting counts the entries the Reader's hourly
// allowance of new Series holds; they resume as it refills, from NextAt.
// UnsupportedCount counts every item the import could not bring in; the
// server keeps the first 50 of them, and Unsupported holds one page of
// those on GET /api/imports/{id} (empty in the listing).
type Import struct {
	ID               int64               `json:"id"`
	Kind             string              `json:"kind"`
	State            string              `json:"state"`
	Total            int                 `json:"total"`
	Added            int                 `json:"added"`
	Already          int                 `json:"already"`
	ProgressApplied  int                 `json:"progress_applied"`
	Waiting          int                 `json:"waiting"`
	NextAt           *time.Time          `json:"next_at"`
	Unsupported      []ImportUnsupported `json:"unsupported"`
	UnsupportedCount int                 `json:"unsupported_count"`
	CreatedAt        time.Time           `json:"created_at"`
	FinishedAt       *time.Time          `json:"finished_at"`
}

// ImportUnsupported is one item an import could not bring in, and why.
type ImportUnsupported struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}
