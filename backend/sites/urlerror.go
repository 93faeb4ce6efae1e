package sites

import "errors"

// URLError is a URL Canonicalize (or an adapter's SeriesID) refused, with
// the reason a person reads. Reason is a clause without a package prefix
// or error chain ("\"notauuid\" is not a MangaDex Series id"); Kind is
// ErrBadURL, ErrUnknownSite or ErrNoSeries, for errors.Is. The API builds
// its one sentence from Reason (URLReason), never from Error().
type URLError struct {
	Site   string // the Site the host belongs to; "" before one is known
	Reason string
	Kind   error
}

// Error is the log form: "mangadex: \"x\" is not a MangaDex Series id: the URL names no Series".
func (e *URLError) Error() string {
	prefix := "sites: "
	if e.Site != "" {
		prefix = e.Site + ": "
	}
	return prefix + e.Reason + ": " + e.Kind.Error()
}

// Unwrap is the Kind.
func (e *URLError) Unwrap() error { return e.Kind }

// NoSeries is what an adapter's SeriesID returns for a URL of its Site
// whose path names no Series; reason says what is wrong with it.
func NoSeries(site, reason string) error {
	return &URLError{Site: site, Reason: reason, Kind: ErrNoSeries}
}

func badURL(reason string) error { return &URLError{Reason: reason, Kind: ErrBadURL} }

// URLReason is the clause a person reads for a refused URL: the
// URLError's Reason, or a plain one when err is not a URLError (never the
// error's text).
func URLReason(err error) string {
	var ue *URLError
	if errors.As(err, &ue) && ue.Reason != "" {
		return ue.Reason
	}
	return "it is not a Series or chapter link of one of the Sites"
}

// RefusedURLSentence is the one sentence a person reads when a URL cannot
// be bookmarked (POST /api/bookmarks' 422, an import's unsupported entry):
// built from URLReason, never the error's text.
func RefusedURLSentence(err error) string {
	return "that URL cannot be bookmarked: " + URLReason(err)
}
