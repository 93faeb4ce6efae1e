package store_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// A MangaUpdates id reaches the followed Series that carry it (whoever's
// word it is) and every other member of their Works, on any Site; an id
// nobody carries reaches nothing, another kind's equal value neither; more
// ids than the bound is an error, not a silent cut.
func TestSeriesByMU(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	for _, s := range [][2]string{{"mangadex", "a"}, {"comix", "b"}, {"kagane", "c"}, {"mangapill", "d"}} {
		storetest.Series(ctx, t, st, storetest.SeriesOpts{Site: s[0], ID: s[1]})
	}
	if _, err := st.AddSeriesIDs(ctx, []store.SeriesIDs{
		{Site: "mangadex", SeriesID: "a", IDs: []store.ExternalID{{Kind: "mu", Value: "60143657332", Source: store.IDFromSite}}},
		{Site: "mangapill", SeriesID: "d", IDs: []store.ExternalID{{Kind: "al", Value: "60143657332", Source: store.IDFromSite}}},
	}); err != nil {
		t.Fatal(err)
	}
	storetest.Works(ctx, t, st, storetest.WorkOpts{Members: []storetest.MemberOpts{
		{Site: "mangadex", SeriesID: "a"}, {Site: "comix", SeriesID: "b", LinkedBy: "reader"}}})
	got, err := st.SeriesByMU(ctx, []string{"60143657332", "999"})
	if err != nil {
		t.Fatal(err)
	}
	want := []store.MUSeries{{Site: "comix", SeriesID: "b", Value: "60143657332"}, {Site: "mangadex", SeriesID: "a", Value: "60143657332"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("reached %+v, want %+v", got, want)
	}
	many := make([]string, store.MaxMUValues+1)
	for i := range many {
		many[i] = strconv.Itoa(i + 1)
	}
	if _, err := st.SeriesByMU(ctx, many); err == nil {
		t.Fatal("more ids than the bound were looked up")
	}
}

// The feed's claim: one process per interval, the state round-trips, and
// a long reason is cut to the column's bound.
func TestReleaseFeedState(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	if f, err := st.GetReleaseFeed(ctx); err != nil || f.LastReadAt != nil || f.NextAt != nil {
		t.Fatalf("zero state %+v %v", f, err)
	}
	if _, won, err := st.ClaimReleaseFeed(ctx, now, 10*time.Minute); err != nil || !won {
		t.Fatalf("first claim %v %v", won, err)
	}
	if _, won, err := st.ClaimReleaseFeed(ctx, now.Add(time.Minute), 10*time.Minute); err != nil || won {
		t.Fatalf("claim within the hold %v %v", won, err)
	}
	long := make([]byte, 1000)
	for i := range long {
		long[i] = 'x'
	}
	seen := make([]int64, store.MaxReleaseSeen+10)
	for i := range seen {
		seen[i] = int64(i + 1)
	}
	next := now.Add(20 * time.Minute)
	if err := st.SaveReleaseFeed(ctx, store.ReleaseFeedState{NextAt: &next, LastReadAt: &now, LastOutcome: "http_error",
		LastReason: string(long), Failures: 2, Seen: seen}); err != nil {
		t.Fatal(err)
	}
	f, err := st.GetReleaseFeed(ctx)
	if err != nil || len(f.LastReason) != 300 || len(f.Seen) != store.MaxReleaseSeen || f.Failures != 2 || !f.NextAt.Equal(next) {
		t.Fatalf("state %d-byte reason, %d seen, %+v %v", len(f.LastReason), len(f.Seen), f.NextAt, err)
	}
	if _, won, _ := st.ClaimReleaseFeed(ctx, next.Add(-time.Second), time.Minute); won {
		t.Fatal("claimed during the backoff")
	}
	if _, won, _ := st.ClaimReleaseFeed(ctx, next, time.Minute); !won {
		t.Fatal("not claimed when the backoff ended")
	}
}
