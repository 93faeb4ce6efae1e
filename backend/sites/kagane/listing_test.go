package kagane

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

func TestParseListing(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing.json"))
	if l.Outcome != sites.OK || l.Err != nil || !l.More || l.Dropped != 1 {
		t.Fatalf("listing %+v", l)
	}
	want := []sites.ListingEntry{
		{SeriesID: "019c1f5e-7a10-7c3e-9b1a-2f6c9d0e4a11", Mark: "118"},
		{SeriesID: "019c1f5e-7a10-7c3e-9b1a-2f6c9d0e4a22", Mark: "7"},
		{SeriesID: "01hq3x7k2m9v8c6b5n4p2r1t0w", Mark: "42"},
		{SeriesID: "019c1f5e-7a10-7c3e-9b1a-2f6c9d0e4a33"},
	}
	if !reflect.DeepEqual(l.Entries, want) {
		t.Fatalf("entries %+v\nwant %+v", l.Entries, want)
	}
}

// TestParseListingNumbers: the unvouched latest_chapters gives a number
// only when one is well-formed (the greatest); last true is the end.
func TestParseListingNumbers(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing_latest_chapters.json"))
	if l.Outcome != sites.OK || l.More || len(l.Entries) != 2 {
		t.Fatalf("listing %+v", l)
	}
	if n := l.Entries[0].Number; n != "118.5" {
		t.Errorf("number %q, want 118.5", n)
	}
	if n := l.Entries[1].Number; n != "" {
		t.Errorf("absurd or wordy chapter_no kept as %q", n)
	}
}

func TestParseListingChanged(t *testing.T) {
	t.Parallel()
	if l := ParseListing(golden.Fixture(t, "listing_changed.json")); l.Outcome != sites.NoChapter || l.Err == nil || len(l.Entries) != 0 {
		t.Errorf("changed shape: %+v", l)
	}
	if l := ParseListing([]byte("<html>")); l.Outcome != sites.Unfetchable || l.Err == nil {
		t.Errorf("not JSON: %+v", l)
	}
	if l := ParseListing([]byte(`{"content":[],"last":true}`)); l.Outcome != sites.OK || len(l.Entries) != 0 || l.More {
		t.Errorf("empty page: %+v", l)
	}
}

// TestListingRequest: the listing opens the home page and POSTs the
// search sorted by updated_at from inside it; page 2 asks page=1; a page
// past the bound asks nothing.
func TestListingRequest(t *testing.T) {
	t.Parallel()
	f := &postFetcher{body: golden.Fixture(t, "listing.json")}
	s := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to"}, Browser: true}
	l := (Adapter{}).Listing(context.Background(), s, f, 2)
	if l.Outcome != sites.OK || len(l.Entries) != 4 || l.Status != 200 {
		t.Fatalf("listing %+v", l)
	}
	r := f.req
	if r.Page != "https://kagane.to/" || r.Data != "https://kagane.to/api/v2/search/series?page=1&size=100&sort=updated_at,desc" ||
		r.Method != http.MethodPost || r.ContentType != "application/json" || string(r.Body) != `{"source_type":["Official","Unofficial","Mixed"]}` {
		t.Fatalf("request %+v body %s", r, r.Body)
	}
	f.req = sites.Request{}
	if l := (Adapter{}).Listing(context.Background(), s, f, maxListingPage+1); l.Outcome != sites.OK || len(l.Entries) != 0 || f.req.Data != "" {
		t.Fatalf("page past the bound: %+v asked %q", l, f.req.Data)
	}
}

type postFetcher struct {
	body []byte
	req  sites.Request
}

func (f *postFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f.req = req
	u, _ := url.Parse(req.Target())
	return &sites.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: f.body, FinalURL: u}, nil
}

func FuzzParseListing(f *testing.F) {
	for _, name := range []string{"listing.json", "listing_latest_chapters.json", "listing_changed.json"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		l := ParseListing(body)
		if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
			t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
		}
		for _, e := range l.Entries {
			if _, ok := listingID(e.SeriesID); !ok {
				t.Fatalf("entry id %q", e.SeriesID)
			}
			if n, ok := sites.ParseNumber(e.Number); e.Number != "" && (!ok || n != e.Number) {
				t.Fatalf("number %q", e.Number)
			}
		}
	})
}

// TestListingShape: probe's field diff for the search page names what
// moved when the listing's shape changes.
func TestListingShape(t *testing.T) {
	t.Parallel()
	missed := func(body []byte) []string {
		var out []string
		for _, f := range (Adapter{}).ListingShape(body) {
			if !f.Found {
				out = append(out, f.Name)
			}
		}
		return out
	}
	if m := missed(golden.Fixture(t, "listing.json")); len(m) != 0 {
		t.Errorf("listing.json misses %v", m)
	}
	if m := missed(golden.Fixture(t, "listing_changed.json")); len(m) != 4 {
		t.Errorf("changed listing misses %v, want all four", m)
	}
}
