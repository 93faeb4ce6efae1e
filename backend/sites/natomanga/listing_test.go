package natomanga

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

const www = "https://www.natomanga.com"

func TestParseListing(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing.html"), www, 1)
	if l.Outcome != sites.OK || l.Err != nil || !l.More || l.Dropped != 1 {
		t.Fatalf("listing %+v", l)
	}
	want := []sites.ListingEntry{
		{SeriesID: "the-generated-knight", Number: "118.5"},
		{SeriesID: "relative_slug"},
		{SeriesID: "no-chapter-yet"},
	}
	if !reflect.DeepEqual(l.Entries, want) {
		t.Fatalf("entries %+v\nwant %+v", l.Entries, want)
	}
	if l := ParseListing(golden.Fixture(t, "listing.html"), www, 3); l.More {
		t.Errorf("page 3 links no page 4, yet More")
	}
}

func TestParseListingOldLayout(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing_old_layout.html"), www, 1)
	if l.Outcome != sites.OK || l.More || !reflect.DeepEqual(l.Entries, []sites.ListingEntry{{SeriesID: "old-layout-series", Number: "40"}}) {
		t.Fatalf("listing %+v", l)
	}
}

func TestParseListingChanged(t *testing.T) {
	t.Parallel()
	if l := ParseListing(golden.Fixture(t, "listing_changed.html"), www, 1); l.Outcome != sites.NoChapter || l.Err == nil || len(l.Entries) != 0 {
		t.Errorf("changed layout: %+v", l)
	}
	if l := ParseListing([]byte(`<div class="comic-list"></div>`), www, 1); l.Outcome != sites.OK || len(l.Entries) != 0 {
		t.Errorf("empty list: %+v", l)
	}
}

// TestListingLanded: links are judged on the origin the read landed on
// (a mirror's listing links the mirror), and the request is the page.
func TestListingLanded(t *testing.T) {
	t.Parallel()
	body := bytes.ReplaceAll(golden.Fixture(t, "listing.html"), []byte(www), []byte("https://www.nelomanga.net"))
	s := &sites.Site{Name: "natomanga", Hosts: []string{"natomanga.com", "nelomanga.net"}, Browser: true}
	f := &pageFetcher{body: body, final: "https://www.nelomanga.net/manga-list/latest-manga?page=1"}
	l := (Adapter{}).Listing(context.Background(), s, f, 1)
	if l.Outcome != sites.OK || len(l.Entries) != 3 || f.req.Page != "https://natomanga.com/manga-list/latest-manga?page=1" || f.req.Data != "" {
		t.Fatalf("listing %+v, asked %+v", l, f.req)
	}
	f.req = sites.Request{}
	if l := (Adapter{}).Listing(context.Background(), s, f, maxListingPage+1); l.Outcome != sites.OK || len(l.Entries) != 0 || f.req.Page != "" {
		t.Fatalf("page past the bound: %+v asked %q", l, f.req.Page)
	}
}

type pageFetcher struct {
	body  []byte
	final string
	req   sites.Request
}

func (f *pageFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f.req = req
	u, _ := url.Parse(f.final)
	return &sites.Response{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: f.body, FinalURL: u}, nil
}

func FuzzParseListing(f *testing.F) {
	for _, name := range []string{"listing.html", "listing_old_layout.html", "listing_changed.html"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		l := ParseListing(body, www, 1)
		if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
			t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
		}
		for _, e := range l.Entries {
			if !slugRe.MatchString(e.SeriesID) {
				t.Fatalf("entry id %q", e.SeriesID)
			}
			if n, ok := sites.ParseNumber(e.Number); e.Number != "" && (!ok || n != e.Number) {
				t.Fatalf("number %q", e.Number)
			}
		}
	})
}

// TestListingShape: probe's field diff for the listing page.
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
	if n := missed(golden.Fixture(t, "listing_changed.html")); n != 4 {
		t.Errorf("changed listing misses %d fields, want 4", n)
	}
}
