package mangapill

import (
	"bytes"
	"context"
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

func TestParseListing(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing.html"), base)
	if l.Outcome != sites.OK || l.Err != nil || l.More || l.Dropped != 0 {
		t.Fatalf("listing %+v", l)
	}
	want := []sites.ListingEntry{
		{SeriesID: "2", Number: "1184", SeenAt: time.Date(2026, 11, 30, 21, 58, 2, 0, time.UTC)},
		{SeriesID: "7530", Number: "45.5", SeenAt: time.Date(2026, 11, 30, 21, 40, 17, 0, time.UTC)},
		{SeriesID: "3120"},
	}
	if len(l.Entries) != len(want) {
		t.Fatalf("entries %+v", l.Entries)
	}
	for i, e := range l.Entries {
		if e != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
	if l := ParseListing([]byte(`<html><body><div class="container">moved</div></body></html>`), base); l.Outcome != sites.NoChapter || l.Err == nil {
		t.Errorf("page without a grid: %+v", l)
	}
}

// TestParseListingHostile: Series links that are path tricks drop their
// card; an absurd number and a bad time are left out of the entry.
func TestParseListingHostile(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing_hostile.html"), base)
	if l.Outcome != sites.OK {
		t.Fatalf("listing %+v", l)
	}
	if l.Dropped != 5 || len(l.Entries) != 2 {
		t.Fatalf("dropped %d, entries %+v", l.Dropped, l.Entries)
	}
	if e := l.Entries[0]; e != (sites.ListingEntry{SeriesID: "2"}) {
		t.Errorf("absurd number or bad time kept: %+v", e)
	}
	if e := l.Entries[1]; e.SeriesID != "42" {
		t.Errorf("padded id: %+v", e)
	}
}

// TestParseListingBounded: a 10 MB page of cards yields at most
// MaxListingEntries entries.
func TestParseListingBounded(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString(`<html><body><div class="grid">`)
	n := 0
	for b.Len() < 10<<20 {
		b.WriteString(`<div><a href="/chapters/2-10001000/x">#1</a><a href="/manga/2/x">x</a></div>`)
		n++
	}
	b.WriteString(`</div></body></html>`)
	l := ParseListing(b.Bytes(), base)
	if l.Outcome != sites.OK || len(l.Entries) > sites.MaxListingEntries {
		t.Fatalf("%d cards: outcome %s, %d entries, %d dropped", n, l.Outcome, len(l.Entries), l.Dropped)
	}
}

func TestListingOnePage(t *testing.T) {
	t.Parallel()
	f := &oneFetcher{body: golden.Fixture(t, "listing.html")}
	s := &sites.Site{Name: "mangapill", Hosts: []string{"mangapill.com"}}
	if l := (Adapter{}).Listing(context.Background(), s, f, 1); l.Outcome != sites.OK || len(l.Entries) != 3 || f.got != base+"/chapters" || f.ref != base+"/" {
		t.Fatalf("page 1: %+v, asked %q referer %q", l, f.got, f.ref)
	}
	f.got = ""
	if l := (Adapter{}).Listing(context.Background(), s, f, 2); l.Outcome != sites.OK || len(l.Entries) != 0 || l.More || f.got != "" {
		t.Fatalf("page 2: %+v, asked %q", l, f.got)
	}
}

type oneFetcher struct {
	body     []byte
	got, ref string
}

func (f *oneFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f.got, f.ref = req.Target(), req.Header.Get("Referer")
	u, _ := url.Parse(f.got)
	return &sites.Response{Status: 200, Header: map[string][]string{"Content-Type": {"text/html"}}, Body: f.body, FinalURL: u}, nil
}

func FuzzParseListing(f *testing.F) {
	f.Add(golden.Fixture(f, "listing.html"))
	f.Add(golden.Fixture(f, "listing_hostile.html"))
	f.Fuzz(func(t *testing.T, body []byte) {
		l := ParseListing(body, base)
		if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
			t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
		}
		for _, e := range l.Entries {
			if _, err := number(e.SeriesID); err != nil || e.SeriesID[0] == '0' {
				t.Fatalf("entry id %q", e.SeriesID)
			}
			if n, ok := sites.ParseNumber(e.Number); e.Number != "" && (!ok || n != e.Number) {
				t.Fatalf("number %q", e.Number)
			}
		}
	})
}

// TestListingShape: probe --listing's field diff names what moved.
func TestListingShape(t *testing.T) {
	t.Parallel()
	missed := func(body []byte) int {
		n := 0
		for _, f := range (Adapter{}).ListingShape(body) {
			if !f.Found {
				n++
			}
		}
		return n
	}
	if n := missed(golden.Fixture(t, "listing.html")); n != 0 {
		t.Errorf("listing.html misses %d fields", n)
	}
	if n := missed([]byte(`<html><body><div class="container">moved</div></body></html>`)); n != 4 {
		t.Errorf("a moved page misses %d fields, want 4", n)
	}
}
