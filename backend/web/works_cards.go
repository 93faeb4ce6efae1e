package web

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/store"
)

// One card per story (docs/adr/0021-works-link-by-ids.md): the Reader's
// bookmarks that are members of one Work make one card, the Work's, with
// each member as a small Site chip; a Series in no Work is a card of one
// member. The library pages, sorts, filters and counts these cards.

// libraryCard is one card of the library before it is drawn: the bookmarks
// it stands for, in the store's order, and their Work (nil for a lone
// Series).
type libraryCard struct {
	items []store.LibraryItem
	work  *store.Work
	key   string // lower-cased titles, Sites and ids, for the text filter
}

// memberChip is one member of a Work as its card's chip shows it.
type memberChip struct {
	Site   string
	Latest string // the member's own Latest number, "" when unknown
	State  string // "failing", "drifted" or ""
}

// groupCards makes the library's cards from the store's rows: the rows of
// one Work become one card, placed where its first row stands (the store
// orders by New, then by the Latest's date, and New is the Work's on every
// member). A row whose Work is missing from works stays a card of its own.
func groupCards(list []store.LibraryItem, works map[int64]*store.Work) []libraryCard {
	cards := make([]libraryCard, 0, len(list))
	at := map[int64]int{}
	for _, it := range list {
		var wk *store.Work
		if it.WorkID != nil {
			wk = works[*it.WorkID]
		}
		if wk == nil {
			cards = append(cards, libraryCard{items: []store.LibraryItem{it}, key: searchKey(it.Title, it.Site, it.SeriesID)})
			continue
		}
		if i, ok := at[wk.ID]; ok {
			cards[i].items = append(cards[i].items, it)
			continue
		}
		at[wk.ID] = len(cards)
		// Each member's Site and id, and its title once (members mostly
		// share one): the key is in every card's markup.
		key := strings.ToLower(wk.Title)
		for _, m := range wk.Members {
			if t := strings.ToLower(m.Title); !strings.Contains(key, t) {
				key += " " + t
			}
			key += " " + strings.ToLower(m.Site+" "+m.SeriesID)
		}
		cards = append(cards, libraryCard{items: []store.LibraryItem{it}, work: wk, key: key})
	}
	return cards
}

func searchKey(title, site, id string) string { return strings.ToLower(title + " " + site + " " + id) }

// first is the card's face for its hooks and links: for a Work, the member
// the Reader bookmarked first.
func (c libraryCard) first() store.LibraryItem {
	f := c.items[0]
	for _, it := range c.items[1:] {
		if it.CreatedAt.Before(f.CreatedAt) {
			f = it
		}
	}
	return f
}

// isNew, onSite, title and appeared are what the filters and sorts read.
func (c libraryCard) isNew() bool {
	if c.work != nil {
		return c.work.New
	}
	return c.items[0].New
}

func (c libraryCard) onSite(site string) bool {
	for _, it := range c.items {
		if it.Site == site {
			return true
		}
	}
	return false
}

func (c libraryCard) title() string {
	if c.work != nil && c.work.Title != "" {
		return c.work.Title
	}
	return c.first().Title
}

func (c libraryCard) appeared() time.Time {
	if c.work != nil {
		if c.work.Latest != nil && c.work.Latest.SeenAt != nil {
			return *c.work.Latest.SeenAt
		}
		return time.Time{}
	}
	return appeared(c.items[0])
}

// view is the card as the template draws it.
func (c libraryCard) view(now time.Time) libraryItem {
	if c.work == nil {
		return cardOf(c.items[0], c.key, now)
	}
	return workCardOf(c, now)
}

// workCardOf is a Work's card: its title, the Work's Latest (linked to
// the member showing it), the Reader's Progress on the Work and what is
// unread between them, Continue, and a chip per member.
func workCardOf(c libraryCard, now time.Time) libraryItem {
	wk, f := c.work, c.first()
	li := cardOf(f, c.key, now)
	id := strconv.FormatInt(wk.ID, 10)
	li.WorkID, li.PagePath, li.ActionPath = id, "/works/"+id, "/works/"+id
	li.Title = c.title()
	if li.Title == "" {
		li.Title = f.SeriesID
	}
	li.Initial = strings.ToUpper(string([]rune(li.Title + "?")[:1]))
	if li.CoverPath == "" {
		for _, it := range c.items {
			if it.HasCover {
				li.CoverPath = "/covers/" + url.PathEscape(it.Site) + "/" + url.PathEscape(it.SeriesID)
				break
			}
		}
	}
	li.New, li.ProgressNumber = wk.New, wk.ProgressNumber
	li.LatestNumber, li.LatestTitle, li.LatestURL, li.LatestSite, li.Appeared = "", "", "", "", ""
	offsets := map[[2]string]float64{}
	for _, m := range wk.Members {
		off, _ := strconv.ParseFloat(m.Offset, 64)
		offsets[[2]string{m.Site, m.SeriesID}] = off
		chip := memberChip{Site: m.Site, Latest: m.LatestNumber}
		switch {
		case m.FailingSince != nil:
			chip.State = "failing"
		case m.DriftSince != nil:
			chip.State = "drifted"
		}
		li.Chips = append(li.Chips, chip)
		if l := wk.Latest; l != nil && m.Site == l.Site && m.SeriesID == l.SeriesID {
			li.LatestTitle = chapterTitle(m.LatestTitle, m.LatestNumber)
		}
	}
	// A member in trouble first: on a phone the chips' line is cut short.
	slices.SortStableFunc(li.Chips, func(a, b memberChip) int { return cmp.Compare(len(b.State), len(a.State)) })
	if l := wk.Latest; l != nil {
		li.LatestNumber, li.LatestURL, li.LatestSite = l.Number, siteLink(l.URL), l.Site
		if l.SeenAt != nil {
			li.Appeared = ago(now, *l.SeenAt)
		}
	}
	li.Checking = true
	li.AddedByRead = true
	for _, it := range c.items {
		li.Checking = li.Checking && it.CheckedAt == nil
		li.AddedByRead = li.AddedByRead && it.AddedBy == "read"
	}
	li.Failing, li.Unread, li.ContinueNumber, li.ContinueURL = "", "", "", ""
	if li.New {
		li.Unread = unread(li.LatestNumber, li.ProgressNumber)
		li.ContinueNumber, li.ContinueURL = li.LatestNumber, li.LatestURL
		// The first chapter past the Work's Progress that a member's Lane
		// saw with its page, in Work numbers.
		p, _ := strconv.ParseFloat(li.ProgressNumber, 64)
		best := 0.0
		for _, it := range c.items {
			n, err := strconv.ParseFloat(it.ContinueNumber, 64)
			if err != nil || it.ContinueURL == "" || siteLink(it.ContinueURL) == "#" {
				continue
			}
			n += offsets[[2]string{it.Site, it.SeriesID}]
			if n > p && (best == 0 || n < best) {
				best = n
				li.ContinueNumber, li.ContinueURL = strconv.FormatFloat(n, 'f', -1, 64), siteLink(it.ContinueURL)
			}
		}
	}
	li.CanMark = li.LatestNumber != "" && (li.New || li.ProgressNumber == "")
	return li
}
