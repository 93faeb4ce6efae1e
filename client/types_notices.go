package client

import "time"

// BookmarkNotify is a bookmark's notify mode: "each" (default), "off", or
// "pile" (held until Pile chapters are unread or PileDays have passed).
type BookmarkNotify struct {
	Mode     string `json:"mode"`
	Pile     int    `json:"pile"`
	PileDays int    `json:"pile_days"`
}

// ChapterEvent is one New Chapter of a Reader's bookmarks (GET
// /api/chapters).
type ChapterEvent struct {
	Site         string    `json:"site"`
	SeriesID     string    `json:"series_id"`
	Title        string    `json:"title"`
	Number       string    `json:"number"`
	ChapterTitle string    `json:"chapter_title"`
	URL          string    `json:"url"`
	SeenAt       time.Time `json:"seen_at"`
}

// ChaptersResponse is the body of GET /api/chapters.
type ChaptersResponse struct {
	Chapters []ChapterEvent `json:"chapters"`
}

// OutletHealth is one outlet's delivery health on the settings.
type OutletHealth struct {
	Outlet       string     `json:"outlet"`
	LastOKAt     *time.Time `json:"last_ok_at"`
	LastError    string     `json:"last_error"`
	FailingSince *time.Time `json:"failing_since"`
	Dropped      int        `json:"dropped"`
	// StoppedAt is when the receiver refused for good (HTTP 401, 403, 404
	// or 410): nothing is sent until the Reader sets the URL again;
	// LastError says why.
	StoppedAt *time.Time `json:"stopped_at"`
}

// Notify is a Reader's notice settings (GET/PUT /api/me/notify).
// WebhookSecret appears only in the answer of the PUT that set a new
// webhook URL.
type Notify struct {
	DigestS           int            `json:"digest_s"`
	Discord           bool           `json:"discord"`
	DiscordAvailable  bool           `json:"discord_available"`
	NtfyURL           string         `json:"ntfy_url"`
	WebhookURL        string         `json:"webhook_url"`
	WebhookSecretSet  bool           `json:"webhook_secret_set"`
	WebhookSecret     string         `json:"webhook_secret,omitempty"`
	PushSubscriptions int            `json:"push_subscriptions"`
	FeedURL           string         `json:"feed_url"`
	Outlets           []OutletHealth `json:"outlets"`
}

// NotifyChange is the body of PUT /api/me/notify: each field optional, ""
// turns a URL outlet off.
type NotifyChange struct {
	DigestS    *int    `json:"digest_s,omitempty"`
	Discord    *bool   `json:"discord,omitempty"`
	NtfyURL    *string `json:"ntfy_url,omitempty"`
	WebhookURL *string `json:"webhook_url,omitempty"`
}

// FeedRotated is the body of POST /api/me/feed/rotate.
type FeedRotated struct {
	FeedURL string `json:"feed_url"`
}

// TestResult is one outlet's answer in POST /api/me/notify/test.
type TestResult struct {
	Outlet string `json:"outlet"`
	OK     bool   `json:"ok"`
	Error  string `json:"error"`
}

// TestResults is the body of POST /api/me/notify/test.
type TestResults struct {
	Results []TestResult `json:"results"`
}

// ReaderNotices is the Reader-delivery part of GET /api/admin/notices.
type ReaderNotices struct {
	Owed           int             `json:"owed"`
	Sent24h        int             `json:"sent_24h"`
	FailingOutlets []FailingOutlet `json:"failing_outlets"`
}

// FailingOutlet counts the Readers whose outlet of one kind is failing.
type FailingOutlet struct {
	Outlet  string `json:"outlet"`
	Readers int    `json:"readers"`
}
