package trackersync

import "errors"

// Refusal is a Reader's request the tracker (or the rules) refused, with
// the sentence to show them: the API answers it 400. It never quotes a
// token.
type Refusal struct {
	Reason string
}

func (r *Refusal) Error() string { return "trackersync: refused: " + r.Reason }

// Refused is the sentence the Reader is shown (the web pages show an
// error's text only when it has this method).
func (r *Refusal) Refused() string { return r.Reason }

func refuse(reason string) error { return &Refusal{Reason: reason} }

// ErrUnknownService is returned for a tracker this build does not know
// (the API answers 404).
var ErrUnknownService = errors.New("trackersync: no such tracker")

// ErrUnavailable wraps a tracker that could not answer a Reader's request
// now (unreachable, rate limiting): the API answers 503.
var ErrUnavailable = errors.New("trackersync: the tracker cannot answer now")

// Services are the trackers this build knows, by their word in the API's
// paths (/api/me/trackers/{service}).
var Services = []string{"anilist", "mangabaka"}
