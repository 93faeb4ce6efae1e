package admin_test

import (
	"testing"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/listing"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
)

// A Lane whose listing has failed three reads in a row says so in its view
// (and so on the admin page and the dashboard), while two do not yet; a
// good read (failures back to 0) clears it.
func TestListingViewSaysWhenTheListingKeepsFailing(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	site := reg.Get("mangapill")
	if site == nil || site.ListerOf() == nil {
		t.Fatal("mangapill has no listing in the registry")
	}
	for _, c := range []struct {
		failures int
		want     bool
	}{{0, false}, {listing.FailuresToSay - 1, false}, {listing.FailuresToSay, true}, {listing.FailuresToSay + 4, true}} {
		v := admin.ListingView(site, store.ListingState{Failures: c.failures, LastOutcome: "errors"})
		if v == nil {
			t.Fatal("no listing view for a Site with a listing")
		}
		if v.Failing != c.want || v.Failures != c.failures {
			t.Errorf("%d failures in a row: failing=%v failures=%d, want failing=%v", c.failures, v.Failing, v.Failures, c.want)
		}
	}
}
