package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// UpdatesPageSize is how many New Chapters one Updates page shows.
const UpdatesPageSize = 50

// updatesView is the Updates page (docs/CONTEXT.md, "Updates"): the
// Reader's New Chapters across the library, newest first, by day.
type updatesView struct {
	Days  []updatesDay
	Older string // the next (older) page's URL, "" on the last
	Paged bool   // a later page (?before=): the page links back to the newest
	Self  string // this page's URL, where Mark read returns
	Done  bool   // ?done=read: the last Mark read worked
	Zone  string // the zone the days are counted in: "UTC", or the Reader's (readerZone)
}

// updatesDay is one day's New Chapters. Days are the Reader's, in their
// browser's zone as the library's cards count them (readerNow), UTC
// without it.
type updatesDay struct {
	ID    string // the heading's id, "d-2026-12-06"
	Label string // "Today", "Yesterday", else "Mon 30 Nov 2026"
	Rows  []updateRow
}

// updateRow is one New Chapter as its row shows it, worked out here so
// the template only places it.
type updateRow struct {
	ID           string // the row's anchor, "u{event id}"
	Title        string // the story's
	PagePath     string // the story's page: /series/{site}/{id} or /works/{id}
	Site         string
	SeriesID     string
	WorkID       string // "" for a Series in no Work
	Number       string // in the story's numbers
	ChapterTitle string // "" when it only repeats the number
	URL          string // the chapter on its Site ("#" when not a Site's page)
	Ago          string // "3 hours ago"
	At           string // the UTC time, for the title attribute
	ISO          string // RFC 3339, for <time datetime>
	Read         bool
}

// updatesRoutes registers the Updates page and its Mark read.
func (h *Handler) updatesRoutes() {
	h.handle("GET /updates", h.session(h.updatesPage))
	h.handle("POST /updates/read", h.post(h.updateRead))
}

// updatesPage renders one page of the session's Reader's Updates
// (store.Updates, one statement): ?before= is a page's cursor.
func (h *Handler) updatesPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	var before *store.UpdatesCursor
	if raw, ok := q["before"]; ok {
		c, err := store.ParseUpdatesCursor(raw[0])
		if err != nil || len(raw) > 1 {
			h.errorPage(w, r, http.StatusBadRequest, "Not a page of Updates",
				"That link names no page of your Updates. Open Updates from the menu to see the newest.")
			return
		}
		before = &c
	}
	p, err := h.Store.Updates(r.Context(), v.ReaderID, before, UpdatesPageSize)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	uv := &updatesView{Paged: before != nil, Self: updatesPath(before, ""), Done: q.Get("done") == "read"}
	if p.Next != nil {
		uv.Older = updatesPath(p.Next, "")
	}
	now := h.readerNow(r)
	uv.Zone = now.Location().String()
	uv.Days = updatesDays(p.Updates, now)
	h.render(w, r, http.StatusOK, "updates", page{Title: "Updates", V: v, Upd: uv})
}

// updatesPath is the Updates page at the cursor (nil: the newest), with
// the query's done when set.
func updatesPath(before *store.UpdatesCursor, done string) string {
	u := url.Values{}
	if before != nil {
		u.Set("before", before.String())
	}
	if done != "" {
		u.Set("done", done)
	}
	if len(u) == 0 {
		return "/updates"
	}
	return "/updates?" + u.Encode()
}

// updatesDays groups Updates (newest first) by their day in now's zone
// (the Reader's) and shows each as its row.
func updatesDays(us []store.Update, now time.Time) []updatesDay {
	var days []updatesDay
	today := now.Format(time.DateOnly)
	yesterday := now.AddDate(0, 0, -1).Format(time.DateOnly)
	for _, u := range us {
		at := u.SeenAt.In(now.Location())
		day := at.Format(time.DateOnly)
		if len(days) == 0 || days[len(days)-1].ID != "d-"+day {
			label := at.Format("Mon 2 Jan 2006")
			switch day {
			case today:
				label = "Today"
			case yesterday:
				label = "Yesterday"
			}
			days = append(days, updatesDay{ID: "d-" + day, Label: label})
		}
		d := &days[len(days)-1]
		d.Rows = append(d.Rows, updateRowOf(u, now))
	}
	return days
}

// updateRowOf is one Update as its row shows it.
func updateRowOf(u store.Update, now time.Time) updateRow {
	path := url.PathEscape(u.Site) + "/" + url.PathEscape(u.SeriesID)
	row := updateRow{ID: "u" + strconv.FormatInt(u.EventID, 10), Title: u.StoryTitle, PagePath: "/series/" + path,
		Site: u.Site, SeriesID: u.SeriesID, Number: u.Number, ChapterTitle: chapterTitle(u.ChapterTitle, u.SeriesNumber),
		URL: siteLink(u.URL), Ago: ago(now, u.SeenAt), At: when(u.SeenAt), ISO: u.SeenAt.UTC().Format(time.RFC3339), Read: u.Read}
	if u.WorkID != nil {
		row.WorkID = strconv.FormatInt(*u.WorkID, 10)
		row.PagePath = "/works/" + row.WorkID
	}
	if row.Title == "" {
		row.Title = u.SeriesID
	}
	return row
}

// updateRead is an Updates row's Mark read: the story read up to that
// chapter, forward only, by the paths every Mark read takes (a Series'
// Progress by the one read statement, store.MarkReadTo; a Work's on each
// member the Reader bookmarks, as its page's Mark read), then back to the
// Updates page the form came from, at the row.
func (h *Handler) updateRead(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	number, ok := sites.ParseNumber(r.PostFormValue("number"))
	if !ok {
		h.errorPage(w, r, http.StatusBadRequest, "Not a chapter number", "That Mark read named no chapter. Go back to Updates and try again.")
		return
	}
	var err error
	if raw := r.PostFormValue("work"); raw != "" {
		work, perr := strconv.ParseInt(raw, 10, 64)
		if perr != nil || work < 1 {
			h.errorPage(w, r, http.StatusBadRequest, "Not a Work", "That Mark read named no Work. Go back to Updates and try again.")
			return
		}
		err = h.Store.SetWorkProgress(r.Context(), v.ReaderID, work, number, true, h.Now())
	} else {
		_, err = h.Store.MarkReadTo(r.Context(), v.ReaderID, r.PostFormValue("site"), r.PostFormValue("series_id"), number, h.Now())
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.errorPage(w, r, http.StatusNotFound, "Not in your library", "You have no bookmark of that story.")
		return
	case err != nil:
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, updatesBack(r.PostFormValue("back")))
}

// updatesBack is where an Updates Mark read returns: the Updates page the
// form names in back, once safeBack keeps it (its cursor kept when it is
// one, and the row's anchor), with done=read; anything else is the newest
// page.
func updatesBack(back string) string {
	var before *store.UpdatesCursor
	anchor := ""
	if u, err := url.Parse(safeBack(back)); err == nil && u.Path == "/updates" {
		if c, err := store.ParseUpdatesCursor(u.Query().Get("before")); err == nil {
			before = &c
		}
		if f := u.Fragment; len(f) > 1 && len(f) <= 20 && f[0] == 'u' && strings.Trim(f[1:], "0123456789") == "" {
			anchor = "#" + f
		}
	}
	return updatesPath(before, "read") + anchor
}
