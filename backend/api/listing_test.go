package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// lister adds a listing to an adapter.
type lister struct{ sites.Adapter }

func (lister) Listing(context.Context, *sites.Site, sites.Fetcher, int) sites.Listing {
	return sites.Listing{Outcome: sites.OK}
}

// GET /api/admin/lanes carries each Lane's listing (null for a Site
// without one) as its Lane stored it, the last pass says whether it read
// the listing, and /metrics counts the overflows.
func TestLaneListingFields(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	ctx := context.Background()
	// The fixture's adapters are fakes: give two Sites a listing, as the
	// real MangaDex and MangaPill adapters have.
	for _, n := range []string{"mangadex", "mangapill"} {
		s := f.Sites.Get(n)
		s.Adapter, s.ListingEvery = lister{s.Adapter}, sites.DefaultListingEvery
	}
	at := admintest.Now.Add(-2 * time.Minute)
	if err := f.Store.SaveListing(ctx, store.ListingState{Site: "mangadex", LastAt: &at, LastOutcome: "ok", Hinted: 4, Overflows: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Store.InsertPass(ctx, store.Pass{Site: "mangapill", StartedAt: admintest.Now.Add(-time.Second),
		FinishedAt: admintest.Now, Listing: true, Hinted: 3}); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", f.URL()+"/api/admin/lanes", nil)
	req.Header.Set("Authorization", "Bearer "+apitest.OwnerToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body client.LanesResponse
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	by := map[string]client.Lane{}
	for _, l := range body.Lanes {
		by[l.Site] = l
	}
	md := by["mangadex"].Listing
	if md == nil || md.EveryS != 300 || md.LastAt == nil || !md.LastAt.Equal(at) || md.LastOutcome != "ok" || md.Hinted != 4 || md.Overflows != 2 {
		t.Fatalf("mangadex listing %+v", md)
	}
	if mp := by["mangapill"]; mp.Listing == nil || mp.Listing.LastAt != nil || mp.Listing.LastOutcome != "" ||
		mp.LastPass == nil || !mp.LastPass.Listing || mp.LastPass.Hinted != 3 {
		t.Fatalf("mangapill lane %+v listing %+v pass %+v", mp, mp.Listing, mp.LastPass)
	}
	for _, s := range []string{"kagane", "comix", "natomanga"} {
		if by[s].Listing != nil {
			t.Errorf("%s has no listing but shows %+v", s, by[s].Listing)
		}
	}
	fams := scrape(t, f.URL())
	m, ok := value(t, fams, "mangabookmark_listing_overflow_total", map[string]string{"site": "mangadex"})
	if !ok || m.GetCounter().GetValue() != 2 {
		t.Fatalf("listing_overflow for mangadex: %v", m)
	}
	if _, ok := value(t, fams, "mangabookmark_listing_overflow_total", map[string]string{"site": "comix"}); ok {
		t.Error("a Site without a listing has an overflow counter")
	}
}
