package sitestest

import (
	"context"
	"fmt"
	"net/url"
	"sync"

	"mangabookmark/backend/sites"
)

// Adapter is a scripted sites.Adapter. URLs look like
// {origin}/series/{id}; Read answers from the Result set for the Series, or
// Default, or OK with a Latest Chapter "1" when neither is set. It counts
// reads. Safe for concurrent use.
type Adapter struct {
	mu      sync.Mutex
	results map[string]sites.Result
	reads   []string
	// Default answers Series with no Result of their own (nil: OK, "1").
	Default *sites.Result
	// OnRead, when set, runs at the start of every Read (a test can block
	// here, or cancel a context, to drive a Lane mid-pass).
	OnRead func(ctx context.Context, seriesID string)
	// UseFetcher makes Read fetch the Series page through the route it was
	// given first, returning that fetch's outcome when it is not OK: a way
	// to test that a Lane hands the right route to its Site.
	UseFetcher bool
}

var _ sites.Adapter = (*Adapter)(nil)

// newAdapter returns an Adapter with no scripted results.
func newAdapter() *Adapter { return &Adapter{results: map[string]sites.Result{}} }

// Site builds a registry entry named name with a scripted Adapter, origin
// "https://{name}.test" and host "{name}.test". Pace takes the defaults.
func Site(name string, browser bool) (*sites.Site, *Adapter) {
	a := newAdapter()
	return &sites.Site{Name: name, Hosts: []string{name + ".test"}, Browser: browser,
		Rest: sites.DefaultRest, Gap: sites.DefaultGap, Adapter: a, Origin: "https://" + name + ".test"}, a
}

// SetResult scripts the Result of every read of one Series.
func (a *Adapter) SetResult(seriesID string, r sites.Result) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.results[seriesID] = r
}

// SetOutcome scripts a failure outcome (or OK with chapter "1") for a Series.
func (a *Adapter) SetOutcome(seriesID string, o sites.Outcome) {
	r := sites.Result{Outcome: o}
	if o == sites.OK {
		r.Facts = okFacts(seriesID, "1")
	} else {
		r.Err = fmt.Errorf("sitestest: scripted %s", o)
	}
	a.SetResult(seriesID, r)
}

// SetLatest scripts an OK read whose Latest Chapter is number.
func (a *Adapter) SetLatest(seriesID, number string) {
	a.SetResult(seriesID, sites.Result{Outcome: sites.OK, Facts: okFacts(seriesID, number)})
}

// okFacts builds Facts with a title, a cover and a Latest Chapter.
func okFacts(seriesID, number string) sites.Facts {
	return sites.Facts{Title: "Series " + seriesID, CoverURL: "https://covers.test/" + seriesID + ".png",
		Latest: &sites.Chapter{Number: number, Title: "Chapter " + number, URL: "https://chapters.test/" + seriesID + "/" + number}}
}

// Reads returns the Series ids read so far, in order.
func (a *Adapter) Reads() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.reads...)
}

// SeriesID accepts /series/{id} and /series/{id}/anything.
func (a *Adapter) SeriesID(u *url.URL) (string, error) {
	p := sites.PathSegments(u)
	if len(p) < 2 || p[0] != "series" {
		return "", sites.NoSeries("sitestest", fmt.Sprintf("path %q is not /series/{id}", u.Path))
	}
	return p[1], nil
}

// SeriesURL is {origin}/series/{id}.
func (a *Adapter) SeriesURL(s *sites.Site, seriesID string) string {
	return s.Base() + "/series/" + seriesID
}

// Read answers from the script.
func (a *Adapter) Read(ctx context.Context, s *sites.Site, f sites.Fetcher, seriesID string) sites.Result {
	a.mu.Lock()
	a.reads = append(a.reads, seriesID)
	hook := a.OnRead
	a.mu.Unlock()
	if hook != nil {
		hook(ctx, seriesID)
	}
	if a.UseFetcher {
		if f == nil {
			return sites.Result{Outcome: sites.Unreachable, Err: fmt.Errorf("sitestest: no route: %w", sites.ErrUnreachable)}
		}
		req := sites.Request{Site: s, Page: a.SeriesURL(s, seriesID)}
		if _, res, ok := sites.Fetch(ctx, f, req, sites.AnyKind); !ok {
			return res
		}
	}
	if err := ctx.Err(); err != nil {
		return sites.Result{Outcome: sites.Errors, Err: fmt.Errorf("sitestest: read %s: %w", seriesID, err)}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.results[seriesID]; ok {
		return r
	}
	if a.Default != nil {
		return *a.Default
	}
	return sites.Result{Outcome: sites.OK, Facts: okFacts(seriesID, "1")}
}
