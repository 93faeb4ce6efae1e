package weebcentral

import (
	"bytes"
	"context"
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

const listingBase = "https://weebcentral.com"

func TestParseListing(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing.html"), listingBase)
	if l.Outcome != sites.OK || l.Err != nil || !l.More || l.Dropped != 0 {
		t.Fatalf("listing %+v", l)
	}
	want := []sites.ListingEntry{
		{SeriesID: "01J76XYCJ3A9WNRXS3H5YQK6R2", Number: "52", SeenAt: time.Date(2026, 11, 30, 21, 58, 2, 0, time.UTC)},
		{SeriesID: "01J76XY7E9FQ6R2N3KJ5W8M4HD", Number: "139.5", SeenAt: time.Date(2026, 11, 30, 21, 40, 17, 0, time.UTC)},
		{SeriesID: "01J76XYAR1C5D8E2F4G6H8J0KM", SeenAt: time.Date(2026, 11, 30, 20, 2, 0, 0, time.UTC)},
	}
	if len(l.Entries) != len(want) {
		t.Fatalf("entries %+v", l.Entries)
	}
	for i, e := range l.Entries {
		if e != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
	if l := ParseListing([]byte(`<div>nothing new</div>`), listingBase); l.Outcome != sites.NoChapter || l.Err == nil {
		t.Errorf("fragment without articles: %+v", l)
	}
	// A blank fragment is a listing with no releases (a quiet Site, a page
	// past the last), not a failure.
	for _, body := range []string{"", " \n\t"} {
		if l := ParseListing([]byte(body), listingBase); l.Outcome != sites.OK || l.Err != nil || len(l.Entries) != 0 || l.More {
			t.Errorf("blank fragment %q: %+v", body, l)
		}
	}
}

// TestParseListingHostile: Series links that are path tricks, on another
// host or missing drop their article; absurd numbers and bad times are
// left out of the entry.
func TestParseListingHostile(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing_hostile.html"), listingBase)
	if l.Outcome != sites.OK || l.More {
		t.Fatalf("listing %+v", l)
	}
	if l.Dropped != 4 || len(l.Entries) != 2 {
		t.Fatalf("dropped %d, entries %+v", l.Dropped, l.Entries)
	}
	if e := l.Entries[0]; e != (sites.ListingEntry{SeriesID: "01J76XYCJ3A9WNRXS3H5YQK6R2"}) {
		t.Errorf("absurd number or bad time kept: %+v", e)
	}
	if e := l.Entries[1]; e.SeriesID != "01J76XY7E9FQ6R2N3KJ5W8M4HD" || e.Number != "2" && e.Number != "" {
		t.Errorf("lower-case ULID: %+v", e)
	}
}

// TestParseListingBounded: a 10 MB fragment yields at most
// MaxListingEntries entries.
func TestParseListingBounded(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for b.Len() < 10<<20 {
		b.WriteString(`<article><a href="/series/01J76XYCJ3A9WNRXS3H5YQK6R2/x">x</a><span>Chapter 3</span></article>`)
	}
	l := ParseListing(b.Bytes(), listingBase)
	if l.Outcome != sites.OK || len(l.Entries) > sites.MaxListingEntries {
		t.Fatalf("outcome %s, %d entries, %d dropped", l.Outcome, len(l.Entries), l.Dropped)
	}
}

func TestListingPages(t *testing.T) {
	t.Parallel()
	f := &oneFetcher{body: golden.Fixture(t, "listing.html")}
	s := &sites.Site{Name: "weebcentral", Hosts: []string{"weebcentral.com"}}
	if l := (Adapter{}).Listing(context.Background(), s, f, 2); l.Outcome != sites.OK || len(l.Entries) != 3 || f.got != listingBase+"/latest-updates/2" {
		t.Fatalf("page 2: %+v, asked %q", l, f.got)
	}
	f.got = ""
	if l := (Adapter{}).Listing(context.Background(), s, f, 0); len(l.Entries) != 0 || f.got != "" {
		t.Fatalf("page 0 asked %q", f.got)
	}
}

type oneFetcher struct {
	body []byte
	got  string
}

func (f *oneFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f.got = req.Target()
	u, _ := url.Parse(f.got)
	return &sites.Response{Status: 200, Header: map[string][]string{"Content-Type": {"text/html"}}, Body: f.body, FinalURL: u}, nil
}

func FuzzParseListing(f *testing.F) {
	f.Add(golden.Fixture(f, "listing.html"))
	f.Add(golden.Fixture(f, "listing_hostile.html"))
	f.Fuzz(func(t *testing.T, body []byte) {
		l := ParseListing(body, listingBase)
		if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
			t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
		}
		for _, e := range l.Entries {
			if !ulidRe.MatchString(e.SeriesID) {
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
	if n := missed([]byte(`<section><a href="/chapters/x">moved</a></section>`)); n != 3 {
		t.Errorf("a moved fragment misses %d fields, want 3", n)
	}
}
