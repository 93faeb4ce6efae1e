package sites_test

import (
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/mangadex"
	"mangabookmark/backend/sites/mangapill"
)

type listerAdapter struct{ mangapill.Adapter }

// The registry gives a Lister's entry the default ListingEvery and leaves
// an adapter without a listing at zero.
func TestRegistryListingEvery(t *testing.T) {
	t.Parallel()
	withList := &sites.Site{Name: "a", Hosts: []string{"a.test"}, Adapter: listerAdapter{}}
	own := &sites.Site{Name: "b", Hosts: []string{"b.test"}, Adapter: listerAdapter{}, ListingEvery: time.Minute}
	without := &sites.Site{Name: "c", Hosts: []string{"c.test"}, Adapter: plainAdapter{}}
	if _, err := sites.NewRegistry([]*sites.Site{withList, own, without}); err != nil {
		t.Fatal(err)
	}
	if withList.ListingEvery != sites.DefaultListingEvery || own.ListingEvery != time.Minute || without.ListingEvery != 0 {
		t.Fatalf("every: %v %v %v", withList.ListingEvery, own.ListingEvery, without.ListingEvery)
	}
	if without.ListerOf() != nil || withList.ListerOf() == nil {
		t.Fatal("ListerOf")
	}
}

type plainAdapter struct{ mangadex.Adapter }

func (plainAdapter) Listing() {} // not the Lister signature

func TestSeriesFromLink(t *testing.T) {
	t.Parallel()
	a := mangapill.Adapter{}
	for href, want := range map[string]string{
		"/manga/12/slug":                     "12",
		"https://mangapill.com/manga/12/x":   "12",
		"https://evil.example/manga/12/x":    "",
		"//evil.example/manga/12":            "",
		"javascript:alert(1)":                "",
		"/manga/../../admin":                 "",
		"/chapters/12-10001000/x":            "12",
		"https://user@mangapill.com/manga/3": "",
	} {
		if got := sites.SeriesFromLink(a, "https://mangapill.com", href); got != want {
			t.Errorf("%q: %q, want %q", href, got, want)
		}
	}
}

func TestListingAddBounded(t *testing.T) {
	t.Parallel()
	var l sites.Listing
	for i := 0; i < sites.MaxListingEntries+7; i++ {
		l.Add(sites.ListingEntry{SeriesID: "x"})
	}
	if len(l.Entries) != sites.MaxListingEntries || l.Dropped != 7 {
		t.Fatalf("%d entries, %d dropped", len(l.Entries), l.Dropped)
	}
}
