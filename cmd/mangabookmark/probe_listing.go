package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

// listingShown bounds how many lines of a listing probe prints.
const listingShown = 20

// listingReport is what `probe --listing` prints (and --json encodes).
type listingReport struct {
	Site    string         `json:"site"`
	Route   string         `json:"route"`
	Trial   bool           `json:"trial,omitempty"` // the Site has no listing; this read would decide one
	Outcome string         `json:"outcome"`
	Status  int            `json:"status,omitempty"`
	Error   string         `json:"error,omitempty"`
	Lines   int            `json:"lines"`
	Dropped int            `json:"dropped"`
	More    bool           `json:"more"`
	Entries []listingEntry `json:"entries"`
	Fetches []probeFetch   `json:"fetches"`
	TotalMS int64          `json:"total_ms"`
}

// listingEntry is one line of the listing as the adapter read it.
type listingEntry struct {
	SeriesID string     `json:"series_id"`
	Number   string     `json:"number,omitempty"`
	Mark     string     `json:"mark,omitempty"`
	SeenAt   *time.Time `json:"seen_at,omitempty"`
}

// runListing reads page 1 of the named Site's listing through its route
// and adapter, as the Lane would, and prints the lines with each fetch's
// field diff. It writes nothing; an outcome other than ok is an error.
func (c *ProbeCmd) runListing(ctx context.Context, route sites.Fetcher, routeName string, site *sites.Site) error {
	lister := site.ListerOf()
	trial, _ := site.Adapter.(sites.ListingTrial)
	if lister == nil && trial == nil {
		return usagef("probe: %s has no listing (docs/operations.md, \"Listings\")", site.Name)
	}
	rec := &recorder{next: route}
	rctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	start := time.Now()
	var l sites.Listing
	if lister != nil {
		l = lister.Listing(rctx, site, rec, 1)
	} else {
		// No listing yet: read the page that would decide one.
		l = trial.TryListing(rctx, site, rec)
	}
	total := time.Since(start)
	if !l.Outcome.Valid() {
		l = sites.Listing{Outcome: sites.Errors, Err: fmt.Errorf("probe: listing returned outcome %q", l.Outcome)}
	}
	rep := listingReport{Site: site.Name, Route: routeName, Trial: lister == nil, Outcome: string(l.Outcome), Status: l.Status,
		Lines: len(l.Entries), Dropped: l.Dropped, More: l.More, Entries: []listingEntry{}, TotalMS: total.Milliseconds()}
	if l.Err != nil && l.Outcome != sites.OK {
		rep.Error = visible(l.Err.Error())
	}
	for i, e := range l.Entries {
		if i == listingShown {
			break
		}
		le := listingEntry{SeriesID: visible(e.SeriesID), Number: e.Number, Mark: visible(e.Mark)}
		if !e.SeenAt.IsZero() {
			t := e.SeenAt.UTC()
			le.SeenAt = &t
		}
		rep.Entries = append(rep.Entries, le)
	}
	// The fetch lines are a Series probe's, built the same way.
	rep.Fetches = report(sites.Ref{}, routeName, sites.Result{}, rec.exchanges(), total).Fetches
	if shaper, ok := site.Adapter.(sites.ListingShaper); ok {
		for i, e := range rec.exchanges() {
			if e.resp == nil || i >= len(rep.Fetches) {
				continue
			}
			f := &rep.Fetches[i]
			f.Found, f.Missed = []string{}, []string{}
			for _, fl := range shaper.ListingShape(e.resp.Body) {
				if fl.Found {
					f.Found = append(f.Found, fl.Name)
				} else {
					f.Missed = append(f.Missed, fl.Name)
				}
			}
		}
	}
	if err := c.printListing(rep); err != nil {
		return fmt.Errorf("probe: print: %w", err)
	}
	if l.Outcome != sites.OK {
		return fmt.Errorf("probe: %s listing: outcome %s", site.Name, l.Outcome)
	}
	return nil
}

func (c *ProbeCmd) printListing(rep listingReport) error {
	w := writer(c.out)
	if c.JSON {
		return writeJSONReport(w, rep)
	}
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-10s %s\n", k, v) }
	line("site", rep.Site)
	if rep.Trial {
		line("listing", "none yet: a trial read of the page that would decide one (docs/operations.md, \"Listings\")")
	} else {
		line("listing", "page 1")
	}
	line("route", rep.Route)
	line("outcome", rep.Outcome)
	if rep.Error != "" {
		line("error", rep.Error)
	}
	line("lines", fmt.Sprintf("%d read, %d dropped, next page %v", rep.Lines, rep.Dropped, rep.More))
	for i, e := range rep.Entries {
		v := e.SeriesID
		if e.Number != "" {
			v += "  chapter " + e.Number
		}
		if e.Mark != "" {
			v += "  mark " + e.Mark
		}
		if e.SeenAt != nil {
			v += "  " + e.SeenAt.Format(time.RFC3339)
		}
		line(fmt.Sprintf("line %d", i+1), v)
	}
	for i, f := range rep.Fetches {
		v := fmt.Sprintf("%d ms  %s", f.MS, f.URL)
		if f.Error != "" {
			v += "  error: " + f.Error
		} else {
			v += fmt.Sprintf("  HTTP %d", f.Status)
		}
		line(fmt.Sprintf("fetch %d", i+1), v)
		if f.Found != nil || f.Missed != nil {
			line(fmt.Sprintf("fields %d", i+1), shapeLine(f))
		}
	}
	line("total", fmt.Sprintf("%d ms", rep.TotalMS))
	_, err := io.WriteString(w, b.String())
	return err
}
