package store_test

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// TestLibraryPageAgrees: LibraryPage sorts, filters, counts and pages in
// one statement what the library's rules say, worked out here from
// Library and ReaderWorks: one card per Work, placed at its first
// bookmark; a Work's New, title and Latest date are the Work's; the text
// is looked for in the card's title and every member's title and "site
// id", members the Reader does not bookmark and their own pending hand
// link included. The world has lone Series, Works of bookmarked and
// unbookmarked members, an offset, a failing member, dates that tie and
// dates unknown, and a second Reader whose library must not leak in.
func TestLibraryPageAgrees(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r, other := w.reader("1"), w.reader("2")
	at := func(min int) *time.Time { return storetest.At(t0.Add(-time.Duration(min) * time.Minute)) }
	sites := []string{"mangadex", "comix", "weebcentral", "natomanga", "mangakatana", "mgeko"}
	var series []storetest.SeriesOpts
	var marks []storetest.BookmarkOpts
	var progress []storetest.ProgressOpts
	add := func(site, id, title, latest string, seen *time.Time, read string, mine bool) {
		series = append(series, storetest.SeriesOpts{Site: site, ID: id, Title: title, LatestNumber: latest, SeenAt: seen,
			LatestURL: "https://" + site + ".test/c/" + id})
		if mine {
			marks = append(marks, storetest.BookmarkOpts{ReaderID: r, Site: site, SeriesID: id, CreatedAt: at(1000 - len(marks))})
			if read != "" {
				// Read at four times, so the last-read sort has ties to break.
				progress = append(progress, storetest.ProgressOpts{ReaderID: r, Site: site, SeriesID: id, Number: read, ReadAt: at(30 * (len(progress) % 4))})
			}
		}
	}
	// Lone Series: New and not, dates distinct, tied (10) and unknown.
	for i := 0; i < 14; i++ {
		site, id := sites[i%len(sites)], "lone"+strconv.Itoa(i)
		var seen *time.Time
		switch {
		case i%5 == 4:
			seen = nil
		case i%3 == 0:
			seen = at(10)
		default:
			seen = at(20 + 7*i)
		}
		latest, read := strconv.Itoa(10+i), ""
		if i%5 == 4 {
			latest = ""
		}
		if i%2 == 0 && latest != "" {
			read = strconv.Itoa(10 + i - i%4/2*(1+i%3)) // every other one behind, by 1 to 3
		}
		add(site, id, "Lone "+strings.Repeat("z", i%3)+" story "+strconv.Itoa(i), latest, seen, read, true)
	}
	// Work A: two bookmarked members, one behind (New), the other seen
	// first at the same number.
	add("mangadex", "wa1", "Alpha Work", "30", at(15), "29", true)
	add("comix", "wa2", "Alpha Work", "30", at(40), "", true)
	// Work B: one bookmarked member; two the Reader does not bookmark, one
	// ahead under another title, one failing.
	add("weebcentral", "wb1", "Beta", "12", at(90), "12", true)
	add("natomanga", "wb2", "Other Name", "14", at(10), "", false)
	add("mgeko", "wb3", "Beta (fan)", "13", at(5), "", false)
	// Work C: an offset member (its 5 is the Work's 105), dates tied with
	// a lone Series.
	add("mangakatana", "wc1", "Gamma", "5", at(10), "", true)
	add("comix", "wc2", "Gamma", "104", at(10), "104", true)
	// Work D: no Latest anywhere, so its title is the first of its
	// members' (Delta), not the first member's by Site (Zeta D).
	add("mangadex", "wd1", "Zeta D", "", nil, "", true)
	add("mgeko", "wd2", "Delta", "", nil, "", true)
	// Work E: the Reader hand-links its member with an offset (wc3, 7 is
	// E's 107) into Work A, where it counts at its own number.
	add("mangakatana", "we1", "Epsilon", "9", at(300), "8", false)
	add("mangadex", "we2", "Epsilon", "107", at(300), "", false)
	add("natomanga", "wc3", "Epsilon", "7", at(300), "", true)
	// Work F: its newest member ties lone Series at 10 minutes ago, and
	// the card stands by its least title (Aardvark), not that member's.
	add("mangadex", "wf1", "Aardvark", "3", at(200), "", true)
	add("comix", "wf2", "Zulu", "4", at(10), "", true)
	// Case folds in the title order: "beta lower" sorts with Beta, not
	// after Zeta.
	add("mgeko", "low", "beta lower", "2", at(500), "", true)
	// The other Reader's own Series.
	series = append(series, storetest.SeriesOpts{Site: "comix", ID: "theirs", Title: "Alpha Theirs", LatestNumber: "3", SeenAt: at(1)})
	marks = append(marks, storetest.BookmarkOpts{ReaderID: other, Site: "comix", SeriesID: "theirs"},
		storetest.BookmarkOpts{ReaderID: other, Site: "mangadex", SeriesID: "wa1"})
	storetest.Series(w.ctx, t, w.st, series...)
	storetest.Bookmarks(w.ctx, t, w.st, marks...)
	storetest.Progress(w.ctx, t, w.st, progress...)
	storetest.Failure(w.ctx, t, w.st, storetest.FailureOpts{Site: "mgeko", SeriesID: "wb3", Since: t0.Add(-72 * time.Hour)})
	storetest.Works(w.ctx, t, w.st,
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangadex", SeriesID: "wa1"}, {Site: "comix", SeriesID: "wa2"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "weebcentral", SeriesID: "wb1"}, {Site: "natomanga", SeriesID: "wb2"}, {Site: "mgeko", SeriesID: "wb3"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangakatana", SeriesID: "wc1", Offset: "100"}, {Site: "comix", SeriesID: "wc2"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangadex", SeriesID: "wd1"}, {Site: "mgeko", SeriesID: "wd2"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangakatana", SeriesID: "we1"}, {Site: "mangadex", SeriesID: "we2"},
			{Site: "natomanga", SeriesID: "wc3", Offset: "100"}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangadex", SeriesID: "wf1"}, {Site: "comix", SeriesID: "wf2"}}})
	// The Reader's own pending hand link: lone13 into Work B.
	if _, err := w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: sites[13%len(sites)], SeriesID: "lone13"},
		store.SeriesRef{Site: "weebcentral", SeriesID: "wb1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.LinkByHand(w.ctx, r, store.SeriesRef{Site: "mangadex", SeriesID: "wa1"},
		store.SeriesRef{Site: "natomanga", SeriesID: "wc3"}); err != nil {
		t.Fatal(err)
	}
	libraryPageAgrees(t, w, r, "alpha", "OTHER NAME", "natomanga wb2", "fan", "comix", "story 1", "nothing like it", "lone13", "epsilon")
	libraryPageAgrees(t, w, other, "alpha")
	// Numbers and text from a hand-made link: no error, the clamps hold.
	all, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{Page: math.MaxInt, PerPage: math.MaxInt})
	if err != nil || all.Page != 1 || len(all.Cards) != all.Total || all.Total == 0 {
		t.Fatalf("the largest page of the largest size: page %d, %d cards of %d, %v", all.Page, len(all.Cards), all.Total, err)
	}
	if one, err := w.st.LibraryPage(w.ctx, r, store.LibraryQuery{Page: math.MinInt, PerPage: math.MinInt}); err != nil ||
		one.Page != 1 || len(one.Cards) != 1 {
		t.Fatalf("the smallest page of the smallest size: page %d, %d cards, %v", one.Page, len(one.Cards), err)
	}
	for _, q := range []store.LibraryQuery{{Text: "\x00\xff"}, {Site: "\xfe"}, {Text: "x\x00y"}} {
		got, err := w.st.LibraryPage(w.ctx, r, q)
		if err != nil || got.Matched != 0 || len(got.Cards) != 0 || got.Page != 1 || got.Total != all.Total {
			t.Fatalf("%+q: matched %d, %d cards, page %d, total %d, %v; want nothing matched and the counts", []string{q.Text, q.Site}, got.Matched, len(got.Cards), got.Page, got.Total, err)
		}
	}
}

// libraryPageAgrees checks LibraryPage against the rules worked out from
// Library and ReaderWorks, for each sort, with no filter and each filter
// (each of texts, each Site, only New), over pages of two cards and of
// every card, including pages before the first and past the last.
func libraryPageAgrees(t *testing.T, w *noticeWorld, reader int64, texts ...string) {
	t.Helper()
	full, err := w.st.Library(w.ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := w.st.ReaderWorks(w.ctx, reader, t0)
	if err != nil {
		t.Fatal(err)
	}
	works := map[int64]*store.Work{}
	for i := range ws {
		works[ws[i].ID] = &ws[i]
	}
	// The cards, each Work's bookmarks in Library's order.
	var cards []store.LibraryCard
	at := map[int64]int{}
	seen := map[string]bool{}
	for _, it := range full {
		seen[it.Site] = true
		if it.WorkID != nil && works[*it.WorkID] != nil {
			if i, ok := at[*it.WorkID]; ok {
				cards[i].Items = append(cards[i].Items, it)
				continue
			}
			at[*it.WorkID] = len(cards)
		}
		cards = append(cards, store.LibraryCard{WorkID: it.WorkID, Items: []store.LibraryItem{it}})
	}
	// The library's order: New first, then the newest Latest date (the
	// world has no release dates: seen), then the least title, Site and id.
	newest := func(c store.LibraryCard) (d time.Time) {
		for _, it := range c.Items {
			if it.LatestSeenAt != nil && it.LatestSeenAt.After(d) {
				d = *it.LatestSeenAt
			}
		}
		return d
	}
	least := func(c store.LibraryCard, f func(store.LibraryItem) string) string {
		m := f(c.Items[0])
		for _, it := range c.Items[1:] {
			m = min(m, f(it))
		}
		return m
	}
	slices.SortStableFunc(cards, func(a, b store.LibraryCard) int {
		if a.Items[0].New != b.Items[0].New {
			if a.Items[0].New {
				return -1
			}
			return 1
		}
		if c := newest(b).Compare(newest(a)); c != 0 {
			return c
		}
		for _, f := range []func(store.LibraryItem) string{
			func(it store.LibraryItem) string { return it.Title },
			func(it store.LibraryItem) string { return it.Site },
			func(it store.LibraryItem) string { return it.SeriesID },
		} {
			if c := strings.Compare(least(a, f), least(b, f)); c != 0 {
				return c
			}
		}
		return 0
	})
	// The Work page's rows are the Work's card's, in the same order.
	for _, c := range cards {
		if c.WorkID == nil {
			continue
		}
		rows, err := w.st.LibraryOfWork(w.ctx, reader, *c.WorkID)
		if err != nil || !reflect.DeepEqual(rows, c.Items) {
			t.Fatalf("LibraryOfWork(%d): %v %v, want %v", *c.WorkID, cardNames([]store.LibraryCard{{Items: rows}}), err, cardNames([]store.LibraryCard{c}))
		}
	}
	isNew := func(c store.LibraryCard) bool { return c.Items[0].New }
	title := func(c store.LibraryCard) string {
		if c.WorkID != nil {
			return works[*c.WorkID].Title
		}
		return c.Items[0].Title
	}
	appeared := func(c store.LibraryCard) time.Time {
		if c.WorkID != nil {
			if l := works[*c.WorkID].Latest; l != nil && l.SeenAt != nil {
				return *l.SeenAt
			}
			return time.Time{}
		}
		if c.Items[0].LatestSeenAt != nil {
			return *c.Items[0].LatestSeenAt
		}
		return time.Time{}
	}
	// The unread count of a New card: Latest minus Progress, a Work's in
	// Work numbers; the last read: the latest read of its bookmarks.
	unread := func(c store.LibraryCard) float64 {
		if !isNew(c) {
			return math.Inf(-1)
		}
		latest, progress := c.Items[0].LatestNumber, c.Items[0].ProgressNumber
		if c.WorkID != nil {
			latest, progress = works[*c.WorkID].Latest.Number, works[*c.WorkID].ProgressNumber
		}
		l, err1 := strconv.ParseFloat(latest, 64)
		p, err2 := strconv.ParseFloat(progress, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("a New card %v without numbers: %q %q", cardNames([]store.LibraryCard{c}), latest, progress)
		}
		return l - p
	}
	lastRead := func(c store.LibraryCard) (d time.Time) {
		for _, it := range c.Items {
			if it.ProgressReadAt != nil && it.ProgressReadAt.After(d) {
				d = *it.ProgressReadAt
			}
		}
		return d
	}
	holds := func(c store.LibraryCard, text string) bool {
		in := func(s string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(text)) }
		if c.WorkID == nil {
			return in(c.Items[0].Title) || in(c.Items[0].Site+" "+c.Items[0].SeriesID)
		}
		for _, m := range works[*c.WorkID].Members {
			if in(m.Title) || in(m.Site+" "+m.SeriesID) {
				return true
			}
		}
		return false
	}
	var sites []string
	for s := range seen {
		sites = append(sites, s)
	}
	slices.Sort(sites)
	newCount := 0
	for _, c := range cards {
		if isNew(c) {
			newCount++
		}
	}
	queries := []store.LibraryQuery{{}, {OnlyNew: true}}
	for _, text := range texts {
		queries = append(queries, store.LibraryQuery{Text: text})
	}
	for _, s := range sites {
		queries = append(queries, store.LibraryQuery{Site: s}, store.LibraryQuery{Site: s, OnlyNew: true, Text: "a"})
	}
	checked := 0
	for _, q := range queries {
		for _, sort := range []string{store.LibrarySortNew, store.LibrarySortUpdated, store.LibrarySortTitle, store.LibrarySortUnread, store.LibrarySortRead} {
			q.Sort = sort
			var kept []store.LibraryCard
			for _, c := range cards {
				onSite := q.Site == "" || slices.ContainsFunc(c.Items, func(it store.LibraryItem) bool { return it.Site == q.Site })
				if onSite && (q.Text == "" || holds(c, q.Text)) && (!q.OnlyNew || isNew(c)) {
					kept = append(kept, c)
				}
			}
			switch sort {
			case store.LibrarySortUpdated:
				slices.SortStableFunc(kept, func(a, b store.LibraryCard) int { return appeared(b).Compare(appeared(a)) })
			case store.LibrarySortTitle:
				slices.SortStableFunc(kept, func(a, b store.LibraryCard) int {
					return strings.Compare(strings.ToLower(title(a)), strings.ToLower(title(b)))
				})
			case store.LibrarySortUnread:
				slices.SortStableFunc(kept, func(a, b store.LibraryCard) int { return cmp.Compare(unread(b), unread(a)) })
			case store.LibrarySortRead:
				slices.SortStableFunc(kept, func(a, b store.LibraryCard) int { return lastRead(b).Compare(lastRead(a)) })
			}
			for _, per := range []int{2, 1000} {
				pages := max(1, (len(kept)+per-1)/per)
				for _, page := range []int{0, 1, 2, pages, pages + 5} {
					q.Page, q.PerPage = page, per
					got, err := w.st.LibraryPage(w.ctx, reader, q)
					if err != nil {
						t.Fatalf("%+v: %v", q, err)
					}
					want := min(max(page, 1), pages)
					from, to := min((want-1)*per, len(kept)), min(want*per, len(kept))
					if got.Total != len(cards) || got.NewCount != newCount || got.Matched != len(kept) || got.Page != want ||
						!slices.Equal(got.Sites, sites) {
						t.Fatalf("%+v: total %d new %d matched %d page %d sites %v; want %d %d %d %d %v",
							q, got.Total, got.NewCount, got.Matched, got.Page, got.Sites, len(cards), newCount, len(kept), want, sites)
					}
					if len(got.Cards) != to-from {
						t.Fatalf("%+v: %d cards, want %d: got %v", q, len(got.Cards), to-from, cardNames(got.Cards))
					}
					for i, c := range got.Cards {
						if !reflect.DeepEqual(c, kept[from+i]) {
							t.Fatalf("%+v: card %d is %v, want %v (the page %v, the rule %v)", q, from+i,
								cardNames([]store.LibraryCard{c}), cardNames(kept[from+i:from+i+1]), cardNames(got.Cards), cardNames(kept[from:to]))
						}
					}
					checked++
				}
			}
		}
	}
	if checked == 0 || len(cards) == 0 {
		t.Fatal("nothing checked")
	}
}

// cardNames names cards for a failure message: each bookmark's site/id,
// a Work's joined by "+".
func cardNames(cards []store.LibraryCard) []string {
	var out []string
	for _, c := range cards {
		var names []string
		for _, it := range c.Items {
			names = append(names, it.Site+"/"+it.SeriesID)
		}
		out = append(out, strings.Join(names, "+"))
	}
	return out
}
