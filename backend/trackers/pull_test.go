package trackers

import (
	"reflect"
	"testing"
)

func TestPlanPull(t *testing.T) {
	t.Parallel()
	entries := []Entry{
		{MediaID: "100", Progress: 60, Status: StatusCurrent},   // ahead: moves both of its bookmarks
		{MediaID: "200", Progress: 5, Status: StatusCurrent},    // behind ours: nothing
		{MediaID: "300", Progress: 12, Status: StatusCompleted}, // equal: nothing
		{MediaID: "400", Progress: 9, Status: StatusCurrent},    // no bookmark: unmatched
		{MediaID: "100", Progress: 40, Status: StatusPaused},    // a custom list's copy, lower
		{MediaID: "500", Progress: 3, Status: StatusCurrent},    // first read
	}
	marks := []Bookmark{
		{Site: "mangadex", SeriesID: "a", MediaID: "100", Progress: 59.5},
		{Site: "comix", SeriesID: "b", MediaID: "100", Progress: 20},
		{Site: "mangadex", SeriesID: "c", MediaID: "200", Progress: 30},
		{Site: "mangadex", SeriesID: "d", MediaID: "300", Progress: 12},
		{Site: "mangadex", SeriesID: "e", MediaID: "500"},
		{Site: "mangadex", SeriesID: "f", MediaID: "600", Progress: 1}, // not on the list: untouched
		{Site: "mangadex", SeriesID: "g", Progress: 1},                 // no id linked
	}
	got := PlanPull(entries, marks)
	want := PullPlan{
		Moves: []Move{
			{Site: "mangadex", SeriesID: "a", MediaID: "100", From: 59.5, To: 60},
			{Site: "comix", SeriesID: "b", MediaID: "100", From: 20, To: 60},
			{Site: "mangadex", SeriesID: "e", MediaID: "500", From: 0, To: 3},
		},
		Unmatched: []Entry{{MediaID: "400", Progress: 9, Status: StatusCurrent}},
		// Every matched bookmark's state, the custom list's lower PAUSED
		// copy of 100 losing to its higher CURRENT one.
		States: []StateSet{{"mangadex", "a", "reading"}, {"comix", "b", "reading"}, {"mangadex", "c", "reading"},
			{"mangadex", "d", "completed"}, {"mangadex", "e", "reading"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("PlanPull =\n%+v\nwant\n%+v", got, want)
	}
}

// TestPlanPullNeverLowers: whatever the list says, no move goes down or
// stays level, and a duplicate's higher copy wins wherever it stands.
func TestPlanPullNeverLowers(t *testing.T) {
	t.Parallel()
	marks := []Bookmark{{Site: "s", SeriesID: "x", MediaID: "1", Progress: 50}}
	for _, n := range []int{0, 1, 49, 50} {
		if p := PlanPull([]Entry{{MediaID: "1", Progress: n}}, marks); len(p.Moves) != 0 {
			t.Errorf("count %d under Progress 50 moved: %+v", n, p.Moves)
		}
	}
	p := PlanPull([]Entry{{MediaID: "1", Progress: 10}, {MediaID: "1", Progress: 70}}, marks)
	if len(p.Moves) != 1 || p.Moves[0].To != 70 {
		t.Fatalf("duplicate: %+v", p.Moves)
	}
	if p := PlanPull([]Entry{{MediaID: "1", Progress: MaxProgress + 1}}, marks); len(p.Moves) != 0 {
		t.Fatalf("an absurd count moved: %+v", p.Moves)
	}
}
