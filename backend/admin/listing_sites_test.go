package admin_test

import (
	"testing"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
)

// The Lane view's listing is there for every Site with a listing (all but
// Comix, whose browse page no saved capture shows: docs/operations.md) and
// null for the one without.
func TestListingViewPerSite(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range reg.All() {
		v := admin.ListingView(s, store.ListingState{Site: s.Name})
		if want := s.Name != "comix"; (v != nil) != want {
			t.Errorf("%s: listing view %+v, want present %v", s.Name, v, want)
		}
	}
}
