package comix

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

var idRe = regexp.MustCompile(`^[a-z0-9]{3,16}(-[a-z0-9-]{0,200})?$`)

// Adapter is the Comix adapter.
type Adapter struct {
	// Now is the clock the Site's relative chapter times ("9h ago") are
	// read against; nil means the wall clock.
	Now func() time.Time
}

var _ sites.Adapter = Adapter{}

// SeriesID accepts /title/{hid}-{slug} and chapter links
// /title/{hid}-{slug}/{id}-chapter-{n}.
func (Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) >= 2 && p[0] == "title" {
		id := strings.Trim(strings.ToLower(p[1]), "-")
		if idRe.MatchString(id) {
			return id, nil
		}
		return "", sites.NoSeries("comix", fmt.Sprintf("%q is not a Comix title", p[1]))
	}
	return "", sites.NoSeries("comix", "a Series link looks like /title/{id}")
}

// SeriesURL is {origin}/title/{hid}-{slug}.
func (Adapter) SeriesURL(s *sites.Site, id string) string {
	return s.Base() + "/title/" + id
}

// Read opens the title page through the browser route (which passes any
// challenge, the Site's own WAF included) and reads title, poster and the
// Latest Chapter from its initial data. It asks no chapter API: the one
// the Site retired answers 404 for every Series, which must never read as
// the Series being gone, and its successor needs a signature only the
// page's own script can make.
func (a Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, id string) sites.Result {
	req := sites.Request{Site: s, Page: a.SeriesURL(s, id), Accept: "text/html"}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.HTML)
	if !ok {
		return res
	}
	facts, out, err := ParsePage(resp.Body, s.Base(), answeredAt(resp.Header.Get("Date"), a.now()))
	return sites.Done(facts, out, resp.Status, err)
}

// answeredAt is the instant the page's relative times are counted from:
// the answer's own Date when it parses and is not ahead of the clock by
// more than an hour (a Site cannot date its chapters into the future),
// else the clock.
func answeredAt(date string, clock time.Time) time.Time {
	d, err := http.ParseTime(date)
	if err != nil || d.After(clock.Add(time.Hour)) || d.Before(clock.AddDate(-1, 0, 0)) {
		return clock
	}
	return d
}

// now is the adapter's clock: Now, or the wall clock when it is nil.
func (a Adapter) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}
