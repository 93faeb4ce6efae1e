package web

import (
	"context"
	"net/http"
	"slices"
	"time"

	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Rows the Owner's pages show at most.
const (
	adminPassRows        = 50
	adminFailingRows     = 200 // the failing page
	adminLaneFailingRows = 50  // a Lane's page, which links to the rest
)

// adminView is the data of the three Owner pages.
type adminView struct {
	// PhoneSync is the phone sync's figures (nil: the server runs none).
	PhoneSync    *client.PhoneSyncCounts
	Lanes        []client.Lane
	Notices      []noticeView
	Lane         client.Lane
	Passes       []store.Pass
	PassRows     []passRow // Passes with runs of empty ones folded
	Chart        chart
	Failing      []store.AdminFailing
	FailingTotal int
	FailingCap   int
	Site         string // the failing filter's Site
	Outcome      string // the failing filter's outcome
	Sites        []string
	Outcomes     []string
	Back         string // where an act on this page returns to
	Works        *client.AdminWorks
	Work         *client.AdminWork // the Work view's Work
	Now          time.Time         // the pages' times are said relative to it
	Force        *forceQuestion    // the Force question's Series
}

// noticeView is one open Owner notice with its page, the same path its
// Discord embed links to.
type noticeView struct {
	store.Notice
	Link string
}

// syncCounter is the admin read model's phone sync figures (admin.Service
// has them; a test's fake may not).
type syncCounter interface {
	SyncCounts(ctx context.Context) (client.PhoneSyncCounts, error)
}

func (h *Handler) adminPage(w http.ResponseWriter, r *http.Request) {
	lanes, err := h.Admin.LaneViews(r.Context())
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	ns, err := h.Admin.Notices(r.Context())
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	wc, err := h.Admin.WorkCounts(r.Context())
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	av := &adminView{Lanes: lanes, Back: "/admin", Works: &wc, Now: h.Now()}
	if sc, ok := h.Admin.(syncCounter); ok && h.SyncKeys != nil {
		c, err := sc.SyncCounts(r.Context())
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		av.PhoneSync = &c
	}
	for _, n := range ns {
		av.Notices = append(av.Notices, noticeView{Notice: n, Link: ownernotice.PagePath(n.Kind, n.Site)})
	}
	h.render(w, r, http.StatusOK, "admin", page{Title: "Lanes", V: viewerFrom(r.Context()), Admin: true, Adm: av})
}

func (h *Handler) lanePage(w http.ResponseWriter, r *http.Request) {
	site := h.Sites.Get(r.PathValue("site"))
	if site == nil {
		h.errorPage(w, r, http.StatusNotFound, "No such Site", "There is no Lane by that name.")
		return
	}
	lanes, err := h.Admin.LaneViews(r.Context())
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	av := &adminView{Back: "/admin/lanes/" + site.Name, FailingCap: store.AdminFailingTotalCap, Now: h.Now()}
	found := false
	for _, l := range lanes {
		if l.Site == site.Name {
			av.Lane, found = l, true
		}
	}
	if !found {
		h.errorPage(w, r, http.StatusNotFound, "No such Site", "There is no Lane by that name.")
		return
	}
	if av.Passes, err = h.Admin.Passes(r.Context(), site.Name, adminPassRows); err != nil {
		h.unavailable(w, r, err)
		return
	}
	av.Chart = behindChart(av.Passes)
	av.PassRows = foldPasses(av.Passes)
	av.Failing, av.FailingTotal, err = h.Admin.Failing(r.Context(), store.AdminFailingFilter{Site: site.Name, Limit: adminLaneFailingRows})
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "lane", page{Title: site.Name, V: viewerFrom(r.Context()), Admin: true, Adm: av})
}

func (h *Handler) failingPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	av := &adminView{Site: q.Get("site"), Outcome: q.Get("outcome"), Outcomes: client.Outcomes, FailingCap: store.AdminFailingTotalCap, Now: h.Now()}
	for _, s := range h.Sites.All() {
		av.Sites = append(av.Sites, s.Name)
	}
	if (av.Site != "" && h.Sites.Get(av.Site) == nil) || (av.Outcome != "" && !slices.Contains(client.Outcomes, av.Outcome)) {
		h.errorPage(w, r, http.StatusBadRequest, "Unknown filter", "Choose a Site and an outcome from the lists on the failing page.")
		return
	}
	av.Back = r.URL.RequestURI()
	var err error
	av.Failing, av.FailingTotal, err = h.Admin.Failing(r.Context(), store.AdminFailingFilter{Site: av.Site, Outcome: av.Outcome, Limit: adminFailingRows})
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "failing", page{Title: "Failing", V: viewerFrom(r.Context()), Admin: true, Adm: av})
}
