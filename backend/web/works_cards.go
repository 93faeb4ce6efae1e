package web

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
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
}

// memberChip is one member of a Work as its card's chip shows it.
type memberChip struct {
	Site   string
	Latest string // the member's own Latest number, "" when unknown
	State  string // "failing", "drifted" or ""
}

// pageCards makes the cards of one library page from the store's
// (store.LibraryPage), with their Works read for the Reader. A card whose
// Work is gone by then (unlinked between the two reads) shows each of its
// bookmarks as a card of its own.
func (h *Handler) pageCards(r *http.Request, readerID int64, page []store.LibraryCard) ([]libraryCard, error) {
	var ids []int64
	for _, c := range page {
		if c.WorkID != nil {
			ids = append(ids, *c.WorkID)
		}
	}
	ws, err := h.Store.ReaderWorksOf(r.Context(), readerID, ids, h.Now())
	if err != nil {
		return nil, err
	}
	works := make(map[int64]*store.Work, len(ws))
	for i := range ws {
		works[ws[i].ID] = &ws[i]
	}
	cards := make([]libraryCard, 0, len(page))
	for _, c := range page {
		var wk *store.Work
		if c.WorkID != nil {
			wk = works[*c.WorkID]
		}
		if wk == nil {
			for _, it := range c.Items {
				cards = append(cards, libraryCard{items: []store.LibraryItem{it}})
			}
			continue
		}
		cards = append(cards, libraryCard{items: c.Items, work: wk})
	}
	return cards, nil
}

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

// title is the card's: its Work's, else its bookmark's.
func (c libraryCard) title() string {
	if c.work != nil && c.work.Title != "" {
		return c.work.Title
	}
	return c.first().Title
}

// view is the card as the template draws it.
func (c libraryCard) view(now time.Time) libraryItem {
	if c.work == nil {
		return cardOf(c.items[0], now)
	}
	return workCardOf(c, now)
}

// workCardOf is a Work's card: its title, the Work's Latest (linked to
// the member showing it), the Reader's Progress on the Work and what is
// unread between them, Continue, and a chip per member.
func workCardOf(c libraryCard, now time.Time) libraryItem {
	wk, f := c.work, c.first()
	li := cardOf(f, now)
	id := strconv.FormatInt(wk.ID, 10)
	li.WorkID, li.PagePath, li.ActionPath = id, "/works/"+id, "/works/"+id
	li.Title, li.Initial = cardTitle(c.title(), f.GivenTitle, f.URL, f.Site)
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
	for _, m := range wk.Members {
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
	li.Failing, li.Unread, li.Count, li.CountWords, li.ContinueNumber, li.ContinueURL = "", "", "", "", "", ""
	if li.New {
		li.setUnread(li.LatestNumber, li.ProgressNumber)
		// Continue is the chapter after Progress, in Work numbers: its page
		// when a member showed it, else the Series page of the member
		// with the next chapter seen (else the one showing the Latest).
		site, page := wk.ContinueSite, ""
		if site == "" && wk.Latest != nil {
			site = wk.Latest.Site
		}
		for _, m := range wk.Members {
			if m.Site == site {
				page = m.URL
			}
		}
		li.setContinue(store.ContinueAfter(wk.ProgressNumber, wk.ContinueNumber, seenLink(wk.ContinueURL), page), site)
	}
	li.CanMark = li.LatestNumber != "" && (li.New || li.ProgressNumber == "")
	return li
}
