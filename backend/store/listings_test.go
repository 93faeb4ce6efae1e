package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A hint moves a Series' check time back to the due cutoff only when the
// listed number is above the stored Latest Chapter (or no number is
// listed); it never touches the Latest Chapter, never moves a check time
// later, and leaves alone a Series already due (never checked, rested, or
// with a pending Forced Poll).
func TestHintSeries(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	checked := now.Add(-10 * time.Minute)
	rested := now.Add(-2 * time.Hour)
	for _, id := range []string{"low", "same", "bare", "pending", "never", "nonum", "rested"} {
		if _, err := st.EnsureSeries(ctx, "mangapill", id, "https://mangapill.com/manga/"+id); err != nil {
			t.Fatal(err)
		}
		at := checked
		switch id {
		case "never":
			continue
		case "rested":
			at = rested
		}
		if _, _, err := st.StampChecked(ctx, "mangapill", id, at); err != nil {
			t.Fatal(err)
		}
		if id == "nonum" {
			continue
		}
		if _, err := st.RecordOK(ctx, "mangapill", id, store.ReadFacts{Number: "10", ChURL: "https://x/10"}, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.ForcePoll(ctx, "mangapill", "pending", now.Add(-5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	cutoff := now.Add(-time.Hour)
	n, err := st.HintSeries(ctx, "mangapill", []store.Hint{
		{SeriesID: "low", Number: "10.5"}, {SeriesID: "low", Number: "9"}, {SeriesID: "same", Number: "10"},
		{SeriesID: "bare"}, {SeriesID: "pending", Number: "11"}, {SeriesID: "never", Number: "11"},
		{SeriesID: "nonum", Number: "1"}, {SeriesID: "rested", Number: "12"}, {SeriesID: "unknown", Number: "3"},
		{SeriesID: "x'); DROP TABLE series; --"},
	}, cutoff)
	if err != nil || n != 3 {
		t.Fatalf("hinted %d, %v; want low, bare and nonum", n, err)
	}
	want := map[string]*time.Time{"low": &cutoff, "same": &checked, "bare": &cutoff, "pending": &checked,
		"never": nil, "nonum": &cutoff, "rested": &rested}
	for id, w := range want {
		s, err := st.GetSeries(ctx, "mangapill", id)
		if err != nil {
			t.Fatal(err)
		}
		if (w == nil) != (s.LatestCheckedAt == nil) || (w != nil && !s.LatestCheckedAt.Equal(*w)) {
			t.Errorf("%s: latest_checked_at %v, want %v", id, s.LatestCheckedAt, w)
		}
		if id != "never" && id != "nonum" && s.LatestNumber != "10" {
			t.Errorf("%s: a hint wrote the Latest Chapter: %q", id, s.LatestNumber)
		}
	}
	// Due through the cutoff, behind the Series Rest made due before it.
	due, err := st.DueBatch(ctx, "mangapill", time.Hour, now, 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, d := range due {
		order = append(order, d.SeriesID)
	}
	if len(order) != 6 || order[0] != "pending" || order[1] != "never" || order[2] != "rested" {
		t.Fatalf("due order %v", order)
	}
}

func TestListingStateRoundTrip(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	l, err := st.GetListing(ctx, "mangadex")
	if err != nil || l.Site != "mangadex" || l.LastAt != nil || len(l.Seen) != 0 {
		t.Fatalf("zero state %+v %v", l, err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := make([]string, store.MaxListingSeen+5)
	for i := range seen {
		seen[i] = "k"
	}
	if err := st.SaveListing(ctx, store.ListingState{Site: "mangadex", LastAt: &at, LastOutcome: "ok", Hinted: 3, Overflows: 2, Seen: seen}); err != nil {
		t.Fatal(err)
	}
	all, err := st.ListingStates(ctx)
	l = all["mangadex"]
	if err != nil || l.LastAt == nil || !l.LastAt.Equal(at) || l.Hinted != 3 || l.Overflows != 2 || len(l.Seen) != store.MaxListingSeen {
		t.Fatalf("saved %+v %v", l, err)
	}
}
