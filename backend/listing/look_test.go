package listing

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

func e(id, n string, min int) sites.ListingEntry {
	x := sites.ListingEntry{SeriesID: id, Number: n}
	if min > 0 {
		x.SeenAt = time.Date(2026, 12, 1, 0, min, 0, 0, time.UTC)
	}
	return x
}

func keys(es ...sites.ListingEntry) []string {
	var out []string
	for _, x := range es {
		out = append(out, Key(x))
	}
	return out
}

func TestDecide(t *testing.T) {
	t.Parallel()
	last := []sites.ListingEntry{e("a", "5", 3), e("b", "", 0), e("c", "", 0), e("d", "7", 1)}
	for _, tc := range []struct {
		name    string
		prev    []string
		now     []sites.ListingEntry
		hints   []store.Hint
		overlap bool
	}{
		{"first look hints numbers only", nil, last,
			[]store.Hint{{SeriesID: "a", Number: "5"}, {SeriesID: "d", Number: "7"}}, true},
		{"nothing new", keys(last...), last, nil, true},
		{"a new numbered line on top", keys(last...), append([]sites.ListingEntry{e("x", "2", 4)}, last...),
			[]store.Hint{{SeriesID: "x", Number: "2"}}, true},
		{"a bare Series moved up", keys(last...), []sites.ListingEntry{e("c", "", 0), e("a", "5", 3), e("b", "", 0)},
			[]store.Hint{{SeriesID: "c"}}, true},
		{"a bare Series entered", keys(last...), []sites.ListingEntry{e("z", "", 0), e("a", "5", 3)},
			[]store.Hint{{SeriesID: "z"}}, true},
		{"a bare Series pushed down is no hint", keys(last...), []sites.ListingEntry{e("y", "1", 5), e("a", "5", 3), e("b", "", 0)},
			[]store.Hint{{SeriesID: "y", Number: "1"}}, true},
		{"flushed page", keys(last...), []sites.ListingEntry{e("q", "9", 9), e("q", "8", 9)},
			[]store.Hint{{SeriesID: "q", Number: "9"}, {SeriesID: "q", Number: "8"}}, false},
	} {
		lk := Decide(tc.prev, tc.now)
		if !reflect.DeepEqual(lk.Hints, tc.hints) || lk.Overlap != tc.overlap {
			t.Errorf("%s: hints %+v overlap %v, want %+v %v", tc.name, lk.Hints, lk.Overlap, tc.hints, tc.overlap)
		}
		if len(lk.Seen) == 0 || lk.Seen[0] != Key(tc.now[0]) {
			t.Errorf("%s: seen %v", tc.name, lk.Seen)
		}
	}
}

func TestReadPageTwo(t *testing.T) {
	t.Parallel()
	prev := keys(e("a", "5", 3))
	pages := map[int]sites.Listing{
		1: {Outcome: sites.OK, Entries: []sites.ListingEntry{e("n", "1", 9)}, More: true},
		2: {Outcome: sites.OK, Entries: []sites.ListingEntry{e("m", "2", 8), e("a", "5", 3)}},
	}
	var asked []int
	fetch := func(p int) sites.Listing { asked = append(asked, p); return pages[p] }
	r := Read(fetch, prev)
	if r.Overflow || r.Pages != 2 || len(r.Look.Hints) != 2 || !reflect.DeepEqual(asked, []int{1, 2}) {
		t.Fatalf("page-2 overlap: %+v asked %v", r, asked)
	}
	pages[2] = sites.Listing{Outcome: sites.OK, Entries: []sites.ListingEntry{e("m", "2", 8)}}
	if r := Read(fetch, prev); !r.Overflow || len(r.Look.Hints) != 2 {
		t.Fatalf("no overlap on page 2: %+v", r)
	}
	pages[2] = sites.Listing{Outcome: sites.Errors}
	if r := Read(fetch, prev); !r.Overflow || r.Outcome != sites.OK || len(r.Look.Hints) != 1 {
		t.Fatalf("page 2 failed: %+v", r)
	}
	pages[1] = sites.Listing{Outcome: sites.Refused}
	asked = nil
	if r := Read(fetch, prev); r.Outcome != sites.Refused || len(r.Look.Hints) != 0 || len(asked) != 1 {
		t.Fatalf("page 1 refused: %+v asked %v", r, asked)
	}
}

// TestReadRefusedPageTwo: a refused page 2 keeps page 1's look (its hints
// stand, the overflow is counted) but the read counts as refused, so the
// Lane backs off as for a refused page 1; a page 2 that merely failed does
// not.
func TestReadRefusedPageTwo(t *testing.T) {
	t.Parallel()
	prev := keys(e("a", "5", 3))
	pages := map[int]sites.Listing{
		1: {Outcome: sites.OK, Entries: []sites.ListingEntry{e("n", "1", 9)}, More: true},
		2: {Outcome: sites.Refused, Err: sites.ErrChallenge},
	}
	fetch := func(p int) sites.Listing { return pages[p] }
	r := Read(fetch, prev)
	if r.Outcome != sites.OK || r.Pages != 2 || !r.Overflow || len(r.Look.Hints) != 1 {
		t.Fatalf("page 2 refused lost page 1's look: %+v", r)
	}
	if !r.Refused() || r.PageTwo != sites.Refused || !errors.Is(r.PageTwoErr, sites.ErrChallenge) {
		t.Fatalf("page 2 refused is not a refused read: %+v", r)
	}
	pages[2] = sites.Listing{Outcome: sites.Errors}
	if r := Read(fetch, prev); r.Refused() || r.PageTwo != sites.Errors {
		t.Fatalf("page 2 failed (not refused) counts as refused: %+v", r)
	}
	pages[2] = sites.Listing{Outcome: sites.OK, Entries: []sites.ListingEntry{e("a", "5", 3)}}
	if r := Read(fetch, prev); r.Refused() || r.PageTwo != sites.OK {
		t.Fatalf("page 2 ok counts as refused: %+v", r)
	}
	pages[1] = sites.Listing{Outcome: sites.Refused}
	if r := Read(fetch, prev); !r.Refused() || r.PageTwo != "" {
		t.Fatalf("page 1 refused: %+v", r)
	}
}

// TestReadEmptyPage: a quiet Site's empty page 1 hints nothing, reads no
// page 2, counts no overflow and keeps the last look's keys (so the next
// look still compares with them).
func TestReadEmptyPage(t *testing.T) {
	t.Parallel()
	prev := keys(e("a", "5", 3), e("b", "", 0))
	var asked []int
	fetch := func(p int) sites.Listing {
		asked = append(asked, p)
		return sites.Listing{Outcome: sites.OK, More: true}
	}
	r := Read(fetch, prev)
	if r.Outcome != sites.OK || r.Overflow || r.Pages != 1 || len(r.Look.Hints) != 0 || !reflect.DeepEqual(asked, []int{1}) {
		t.Fatalf("empty page: %+v asked %v", r, asked)
	}
	if !reflect.DeepEqual(r.Look.Seen, prev) {
		t.Fatalf("empty page lost the last look's keys: %v, want %v", r.Look.Seen, prev)
	}
}

// TestDecideMark: a bare line whose mark changed (Kagane's book count) is
// a new line and hints its Series even when it stayed on top; the same
// mark seen again does not.
func TestDecideMark(t *testing.T) {
	t.Parallel()
	top := sites.ListingEntry{SeriesID: "a", Mark: "12"}
	prev := keys(top, e("b", "", 0))
	if lk := Decide(prev, []sites.ListingEntry{top, e("b", "", 0)}); len(lk.Hints) != 0 {
		t.Fatalf("same mark hinted: %+v", lk.Hints)
	}
	moved := sites.ListingEntry{SeriesID: "a", Mark: "13"}
	lk := Decide(prev, []sites.ListingEntry{moved, e("b", "", 0)})
	if !reflect.DeepEqual(lk.Hints, []store.Hint{{SeriesID: "a"}}) || !lk.Overlap {
		t.Fatalf("changed mark: hints %+v overlap %v", lk.Hints, lk.Overlap)
	}
	if Key(e("b", "", 0)) != "b||" {
		t.Fatalf("a key without a mark changed form: %q", Key(e("b", "", 0)))
	}
}
