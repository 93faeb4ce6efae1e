package admin

import (
	"mangabookmark/backend/listing"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// ListingView is a Lane's listing object (docs/api.md, "Listings"): nil
// for a Site whose adapter has no listing or whose registry entry turns it
// off, else its pace and the state its Lane last stored.
func ListingView(site *sites.Site, st store.ListingState) *client.LaneListing {
	if site.ListerOf() == nil || site.ListingEvery <= 0 {
		return nil
	}
	return &client.LaneListing{EveryS: seconds(site.ListingEvery), LastAt: utc(st.LastAt),
		LastOutcome: st.LastOutcome, Hinted: st.Hinted, Overflows: st.Overflows,
		Failures: st.Failures, Failing: listing.Failing(st)}
}

// listingViews fills in the listing object of each Lane view, in the
// order of list.
func listingViews(views []client.Lane, list []*sites.Site, states map[string]store.ListingState) {
	for i := range views {
		views[i].Listing = ListingView(list[i], states[list[i].Name])
	}
}
