package trackers

import (
	"context"
	"errors"
)

// Recorder receives the tracker requests' counts; backend/api's /metrics
// implements it as mangabookmark_tracker_requests_total{service,kind,result}
// (only it may import Prometheus).
type Recorder interface {
	// Request counts one request to service ("anilist") of kind (one of
	// the Kind words) by result (one of the Result words).
	Request(service, kind, result string)
}

// The kinds of request a tracker is sent.
const (
	KindList     = "list"     // a public list by user name
	KindProgress = "progress" // one entry's remote count
	KindSave     = "save"     // one write
	KindViewer   = "viewer"   // the token's account
	KindToken    = "token"    // the OAuth code exchange
)

// The results a request is counted under.
const (
	ResultOK           = "ok"
	ResultNoSuchUser   = "no_such_user"
	ResultNoSuchMedia  = "no_such_media"
	ResultTokenRefused = "token_refused"
	ResultRateLimited  = "rate_limited" // a 429, waited out or not
	ResultBadAnswer    = "bad_answer"
	ResultTooLarge     = "too_large"
	ResultUnavailable  = "unavailable"
	ResultCanceled     = "canceled"
	ResultCodeRefused  = "code_refused"
)

// NopRecorder counts nothing (a nil Recorder in a Config).
type NopRecorder struct{}

// Request does nothing.
func (NopRecorder) Request(string, string, string) {}

// ResultOf is the Result word of a call's error.
func ResultOf(err error) string {
	switch {
	case err == nil:
		return ResultOK
	case errors.Is(err, ErrNoSuchUser):
		return ResultNoSuchUser
	case errors.Is(err, ErrNoSuchMedia):
		return ResultNoSuchMedia
	case errors.Is(err, ErrTokenRefused):
		return ResultTokenRefused
	case errors.Is(err, ErrRateLimited):
		return ResultRateLimited
	case errors.Is(err, ErrAnswerTooLarge):
		return ResultTooLarge
	case errors.Is(err, ErrBadAnswer):
		return ResultBadAnswer
	case errors.Is(err, ErrCodeRefused):
		return ResultCodeRefused
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ResultCanceled
	}
	return ResultUnavailable
}
