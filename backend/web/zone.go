package web

import (
	"net/http"
	"regexp"
	"sync"
	"time"

	// The zone names a browser sends are read from Go's own copy of the
	// IANA database: the image (FROM scratch) has no /usr/share/zoneinfo.
	_ "time/tzdata"
)

// The card's days ("around Thu ± 1 day", "failing since 21 Nov") are the
// Reader's own, in their browser's time zone: the server knows no zone of
// a Reader, so app.js stores the browser's IANA zone name
// (Intl.DateTimeFormat().resolvedOptions().timeZone) in the zoneCookie
// cookie, and each page reads it (readerNow). Without it (the first page,
// a browser without script, a name we do not know) the days are UTC, as
// every time in the API is. docs/adr/0032-predictions-never-skip-a-read.md,
// addendum.

// zoneCookie names the cookie that carries the browser's time zone.
const zoneCookie = "tz"

// zoneName is the shape of an IANA zone name ("Europe/Berlin",
// "America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC"): letters, digits
// and _+- in at most three parts, never a path out of the database.
var zoneName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]{0,30}(/[A-Za-z0-9][A-Za-z0-9_+-]{0,30}){0,2}$`)

// zones caches the zones loaded by name: a name loads once, and only
// names that load are kept (the IANA database has about 600).
var zones sync.Map // string -> *time.Location

// zoneOf is the named zone, or nil for a name that is not one ("Local",
// the server's own, is not a Reader's).
func zoneOf(name string) *time.Location {
	if name == "" || name == "Local" || !zoneName.MatchString(name) {
		return nil
	}
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location)
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	zones.Store(name, l)
	return l
}

// readerZone is the zone of the Reader's browser the request carries, UTC
// when it carries none we know.
func readerZone(r *http.Request) *time.Location {
	if c, err := r.Cookie(zoneCookie); err == nil {
		if l := zoneOf(c.Value); l != nil {
			return l
		}
	}
	return time.UTC
}

// readerNow is the Handler's now in the Reader's zone (readerZone): the
// time line's days are counted from it (window).
func (h *Handler) readerNow(r *http.Request) time.Time {
	return h.Now().In(readerZone(r))
}
