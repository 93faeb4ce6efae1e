package listing

import (
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// Key names one listing entry across looks: Series id, number, time and
// mark as the Site gave them. Two looks that share a key saw the same
// line. The mark is appended only when the entry has one, so the keys of
// the Sites without marks read as they always did.
func Key(e sites.ListingEntry) string {
	t := ""
	if !e.SeenAt.IsZero() {
		t = strconv.FormatInt(e.SeenAt.Unix(), 10)
	}
	k := e.SeriesID + "|" + e.Number + "|" + t
	if e.Mark != "" {
		k += "|" + e.Mark
	}
	return k
}

// keySeries is the Series id a Key starts with.
func keySeries(k string) string {
	id, _, _ := strings.Cut(k, "|")
	return id
}

// Look is what one look at a listing decided: the Series to hint, the keys
// to remember for the next look, and whether it overlapped the last one.
type Look struct {
	Hints   []store.Hint
	Seen    []string
	Overlap bool
}

// Decide compares a look's entries (newest first) with the keys the last
// look saw (prev, newest first):
//   - an entry with a number whose key is new hints its Series with that
//     number (the store hints it only when the number is above the stored
//     Latest Chapter, so an entry seen again never hints twice);
//   - an entry without a number hints its Series when its key is new (it
//     entered the listing) or the Series now stands higher than at the
//     last look (it moved up) — never on the first look, which has nothing
//     to compare with;
//   - the look overlaps when it shares a key with the last one, or there
//     was no last look.
func Decide(prev []string, entries []sites.ListingEntry) Look {
	first := len(prev) == 0
	seenBefore := make(map[string]bool, len(prev))
	prevRank := map[string]int{}
	for i, k := range prev {
		seenBefore[k] = true
		if _, ok := prevRank[keySeries(k)]; !ok {
			prevRank[keySeries(k)] = i
		}
	}
	lk := Look{Overlap: first}
	kept := map[string]bool{}
	ranked := map[string]bool{}
	for i, e := range entries {
		k := Key(e)
		old := seenBefore[k]
		lk.Overlap = lk.Overlap || old
		if !kept[k] {
			kept[k] = true
			lk.Seen = append(lk.Seen, k)
		}
		firstOfSeries := !ranked[e.SeriesID]
		ranked[e.SeriesID] = true
		switch {
		case e.Number != "" && !old:
			lk.Hints = append(lk.Hints, store.Hint{SeriesID: e.SeriesID, Number: e.Number})
		case e.Number == "" && !first:
			r, was := prevRank[e.SeriesID]
			if !old || (firstOfSeries && was && i < r) {
				lk.Hints = append(lk.Hints, store.Hint{SeriesID: e.SeriesID})
			}
		}
	}
	if len(lk.Seen) > store.MaxListingSeen {
		lk.Seen = lk.Seen[:store.MaxListingSeen]
	}
	return lk
}
