package trackers

import (
	"context"
	"errors"
)

// Service is one tracker, as the pull and the push use it. Every call is
// paced by the tracker's Limiter and may wait on it. A token is the
// Reader's, opened from its seal for this call only; no error text and no
// log line ever quotes it.
type Service interface {
	// Name is the tracker's word in config, metrics and the API
	// ("anilist").
	Name() string
	// List reads user's whole manga list, with no token (public lists).
	// An unknown user is ErrNoSuchUser.
	List(ctx context.Context, user string) (Collection, error)
	// Progress reads the token's own entry for one media: its count and
	// status, or Remote.OnList false. A refused token is ErrTokenRefused.
	Progress(ctx context.Context, token, mediaID string) (Remote, error)
	// Save writes the token's entry for one media (created when missing)
	// and returns it as the tracker now holds it.
	Save(ctx context.Context, token, mediaID string, w Write) (Remote, error)
	// Viewer names the account a token belongs to.
	Viewer(ctx context.Context, token string) (Account, error)
}

// Status is a list entry's status, in AniList's words (MediaListStatus);
// another tracker maps its own onto them.
type Status string

// The statuses of a list entry. StatusNone is "not on the list".
const (
	StatusNone      Status = ""
	StatusCurrent   Status = "CURRENT"
	StatusPlanning  Status = "PLANNING"
	StatusCompleted Status = "COMPLETED"
	StatusDropped   Status = "DROPPED"
	StatusPaused    Status = "PAUSED"
	StatusRepeating Status = "REPEATING"
)

// Statuses are the statuses a tracker may answer, in AniList's order.
var Statuses = []Status{StatusCurrent, StatusPlanning, StatusCompleted, StatusDropped, StatusPaused, StatusRepeating}

// MaxProgress is the highest chapter count the room reads or writes; a
// larger number from a tracker or a Reader is refused, never cut.
const MaxProgress = 100_000

// MaxEntries is the most entries one List answer may hold, a media on
// several lists (custom lists) counted each time. AniList's
// MediaListCollection returns at most 11,000 unique entries (its
// documentation); a larger answer is refused whole (ErrAnswerTooLarge), so
// nothing of it is half-applied.
const MaxEntries = 50_000

// Entry is one media on a Reader's tracker list.
type Entry struct {
	MediaID  string // the tracker's media id (AniList's media id: Series' `al` id)
	Progress int    // chapters read, 0..MaxProgress
	Status   Status
}

// Refused is an entry of a List answer that could not be read (a
// negative, fractional or absurd count, a bad id); it moves nothing and is
// shown to the Reader rather than dropped silently.
type Refused struct {
	MediaID string // as sent, cut to 32 bytes ("" when missing)
	Reason  string // one sentence
}

// Collection is a List answer: the readable entries, one per media (the
// highest count when the list holds a media twice, as custom lists do),
// and the refused ones.
type Collection struct {
	Entries []Entry
	Refused []Refused
}

// Remote is the token's own entry for one media.
type Remote struct {
	OnList   bool
	Progress int
	Status   Status
}

// Write is what one push sends: the whole chapter count and the status.
type Write struct {
	Progress int
	Status   Status
}

// Account is the tracker account a token belongs to.
type Account struct {
	ID   string
	Name string
}

var (
	// ErrNoSuchUser is returned when the tracker knows no user of that name
	// (or hides their list). The caller refuses the user name.
	ErrNoSuchUser = errors.New("trackers: no such user on the tracker")
	// ErrNoSuchMedia is returned when the tracker knows no media of that id.
	ErrNoSuchMedia = errors.New("trackers: no such media on the tracker")
	// ErrTokenRefused is returned when the tracker refused the token (HTTP
	// 401, or AniList's HTTP 400 "Invalid token"). The caller turns the
	// tracker to reconnect and pushes nothing more until a new token.
	ErrTokenRefused = errors.New("trackers: the tracker refused the token")
	// ErrRateLimited is returned when the tracker still answered 429 after the
	// waits its Retry-After asked for. The caller tries again at its next
	// turn.
	ErrRateLimited = errors.New("trackers: the tracker is rate limiting")
	// ErrBadAnswer is returned when the answer was not the documented shape
	// (wrong types, not JSON, a write that did not take).
	ErrBadAnswer = errors.New("trackers: the tracker's answer is not the documented shape")
	// ErrAnswerTooLarge is returned when the answer's body or entry count is
	// over its bound; nothing of it is used.
	ErrAnswerTooLarge = errors.New("trackers: the tracker's answer is over its size bound")
	// ErrCodeRefused is returned when the tracker refused an OAuth
	// authorization code (used, expired, or for another redirect).
	ErrCodeRefused = errors.New("trackers: the tracker refused the authorization code")
	// ErrBadState is returned when an OAuth callback's state is not one this
	// server made for this Reader's session in the last ten minutes; no code
	// is exchanged.
	ErrBadState = errors.New("trackers: the OAuth state is expired or not this session's")
	// ErrUnavailable is returned when the tracker could not be reached or
	// answered 5xx.
	ErrUnavailable = errors.New("trackers: the tracker is unavailable")
)

// OnePerMedia keeps one entry per media, in the place of its first, with
// the highest count any of them had: a list may name a media twice (in
// two of the Reader's lists, on two pages), and the Reader's Progress is
// the furthest. Every tracker's List reads its answer through it.
func OnePerMedia(entries []Entry) []Entry {
	at := make(map[string]int, len(entries))
	out := entries[:0:0]
	for _, e := range entries {
		if i, seen := at[e.MediaID]; seen {
			if e.Progress > out[i].Progress {
				out[i] = e
			}
			continue
		}
		at[e.MediaID] = len(out)
		out = append(out, e)
	}
	return out
}
