package mangadex

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

func TestParseListing(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing.json"))
	if l.Outcome != sites.OK || l.Err != nil || !l.More || l.Dropped != 0 {
		t.Fatalf("listing %+v", l)
	}
	want := []sites.ListingEntry{
		{SeriesID: "a1c7c817-4e59-43b7-9365-09675a149a6f", Number: "118", SeenAt: time.Date(2026, 11, 30, 21, 58, 2, 0, time.UTC)},
		{SeriesID: "b7e2a0c1-3f4d-4e5f-8a9b-0c1d2e3f4a5b", Number: "45.5", SeenAt: time.Date(2026, 11, 30, 21, 40, 17, 0, time.UTC)},
		{SeriesID: "c3d4e5f6-4444-4c5d-9e6f-000000000066", Number: "", SeenAt: time.Date(2026, 11, 30, 21, 12, 44, 0, time.UTC)},
		{SeriesID: "d4e5f6a7-5555-4d6e-8f7a-000000000099", Number: "27", SeenAt: time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)},
	}
	if len(l.Entries) != len(want) {
		t.Fatalf("entries %+v", l.Entries)
	}
	for i, e := range l.Entries {
		if e != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
}

// TestParseListingHostile: a listing naming Series by path tricks, with
// absurd numbers or bad times, gives no entry for a non-UUID id and no
// number past the bounds; the page near the API's reach says no More.
func TestParseListingHostile(t *testing.T) {
	t.Parallel()
	l := ParseListing(golden.Fixture(t, "listing_hostile.json"))
	if l.Outcome != sites.OK || l.More {
		t.Fatalf("listing %+v", l)
	}
	if l.Dropped != 4 || len(l.Entries) != 2 {
		t.Fatalf("dropped %d, entries %+v", l.Dropped, l.Entries)
	}
	if e := l.Entries[0]; e.SeriesID != "a1c7c817-4e59-43b7-9365-09675a149a6f" || e.Number != "" {
		t.Errorf("absurd number kept: %+v", e)
	}
	if e := l.Entries[1]; e.Number != "" || !e.SeenAt.IsZero() {
		t.Errorf("negative number or bad time kept: %+v", e)
	}
	for _, body := range []string{`{"result":"error","errors":[{"status":404,"detail":"x"}]}`, `{"result":"ok"`, `[]`, `{"result":"weird"}`} {
		if l := ParseListing([]byte(body)); l.Outcome == sites.OK || l.Err == nil || l.Outcome == sites.NotFound {
			t.Errorf("%s: %+v", body, l)
		}
	}
}

// TestParseListingBounded: a 10 MB page of valid rows yields at most
// MaxListingEntries entries, the rest counted dropped.
func TestParseListingBounded(t *testing.T) {
	t.Parallel()
	row := `{"attributes":{"chapter":"7","translatedLanguage":"en","readableAt":"2026-11-30T21:58:02+00:00"},"relationships":[{"id":"a1c7c817-4e59-43b7-9365-09675a149a6f","type":"manga"}]}`
	var b bytes.Buffer
	b.WriteString(`{"result":"ok","offset":0,"total":1,"data":[`)
	n := 0
	for b.Len() < 10<<20 {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
		n++
	}
	b.WriteString(`]}`)
	l := ParseListing(b.Bytes())
	if l.Outcome != sites.OK || len(l.Entries) != sites.MaxListingEntries || l.Dropped != n-sites.MaxListingEntries {
		t.Fatalf("%d rows: %d entries, %d dropped", n, len(l.Entries), l.Dropped)
	}
}

// TestListingRequest: the adapter asks GET /chapter with the listing
// filters the contract names and pages by offset; past the reach it asks
// nothing.
func TestListingRequest(t *testing.T) {
	t.Parallel()
	f := &oneFetcher{body: golden.Fixture(t, "listing.json")}
	s := &sites.Site{Name: "mangadex", Hosts: []string{"mangadex.org", "127.0.0.1:1"}, Origin: "http://127.0.0.1:1", Overridden: true}
	l := Adapter{}.Listing(context.Background(), s, f, 2)
	if l.Outcome != sites.OK || len(l.Entries) != 4 {
		t.Fatalf("listing %+v", l)
	}
	u, err := url.Parse(f.got)
	if err != nil || u.Path != "/chapter" {
		t.Fatalf("asked %q", f.got)
	}
	q := u.Query()
	if q.Get("order[readableAt]") != "desc" || q.Get("limit") != "100" || q.Get("offset") != "100" ||
		q.Get("translatedLanguage[]") != "en" || len(q["contentRating[]"]) != 4 || q.Has("includeEmptyPages") {
		t.Fatalf("query %v", q)
	}
	f.got = ""
	if l := (Adapter{}).Listing(context.Background(), s, f, 101); l.Outcome != sites.OK || len(l.Entries) != 0 || f.got != "" {
		t.Fatalf("page past the reach: %+v, asked %q", l, f.got)
	}
}

type oneFetcher struct {
	body []byte
	got  string
}

func (f *oneFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f.got = req.Target()
	u, _ := url.Parse(f.got)
	return &sites.Response{Status: 200, Header: map[string][]string{"Content-Type": {"application/json"}}, Body: f.body, FinalURL: u}, nil
}

func FuzzParseListing(f *testing.F) {
	f.Add(golden.Fixture(f, "listing.json"))
	f.Add(golden.Fixture(f, "listing_hostile.json"))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkListing(t, ParseListing(body))
	})
}

func checkListing(t *testing.T, l sites.Listing) {
	t.Helper()
	if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
		t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
	}
	for _, e := range l.Entries {
		if !uuidRe.MatchString(e.SeriesID) || strings.ContainsAny(e.SeriesID, "/.?#") {
			t.Fatalf("entry id %q", e.SeriesID)
		}
		if n, ok := sites.ParseNumber(e.Number); e.Number != "" && (!ok || n != e.Number) {
			t.Fatalf("number %q", e.Number)
		}
	}
}
