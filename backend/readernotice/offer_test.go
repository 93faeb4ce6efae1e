package readernotice_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// A Reader whose only bookmark in a Work has failed for over a day reads
// "follow on {Site} instead" in their next Digest, one line, once.
func TestDigestTellsFollowOfferOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r := w.reader("1", h, 0)
	other, err := w.st.UpsertReader(w.ctx, "2", "Other", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.bookmark(r, "mangadex", "a")
	w.bookmark(other.ID, "comix", "b")
	w.bookmark(r, "mangapill", "z")
	if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{
		{Site: "mangadex", SeriesID: "a", IDs: []store.ExternalID{{Kind: "al", Value: "9", Source: store.IDFromSite}}},
		{Site: "comix", SeriesID: "b", IDs: []store.ExternalID{{Kind: "al", Value: "9", Source: store.IDFromSite}}},
	}); err != nil {
		t.Fatal(err)
	}
	storetest.Failure(w.ctx, t, w.st, storetest.FailureOpts{Site: "mangadex", SeriesID: "a", Outcome: "not_found", Since: w.clk.Now().Add(-25 * time.Hour)})
	w.read("mangapill", "z", "1")
	w.read("mangapill", "z", "2")
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls, want one Digest", len(got))
	}
	var body struct {
		Offers []readernotice.Offer `json:"offers"`
	}
	if err := json.Unmarshal(got[0].Body, &body); err != nil || len(body.Offers) != 1 || body.Offers[0].ToSite != "comix" {
		t.Fatalf("offers %+v (%v), want comix", body.Offers, err)
	}
	text := readernotice.Digest{Offers: body.Offers}.LateText()
	if strings.Count(text, "\n") != 1 || !strings.Contains(text, "follow on comix instead") {
		t.Fatalf("offer text %q, want one line", text)
	}
	w.clk.Add(time.Minute)
	w.read("mangapill", "z", "3")
	w.run()
	got = h.received()
	if len(got) != 2 || strings.Contains(string(got[1].Body), `"offers"`) {
		t.Fatalf("the second Digest (%d calls) told the offer again", len(got))
	}
}
