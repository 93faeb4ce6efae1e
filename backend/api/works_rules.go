package api

import (
	"errors"
	"fmt"
	"net/http"

	"mangabookmark/backend/store"
)

// Works' rules beyond the contract's routes (docs/api.md, "Works:
// additions"): a preferred Site to hold a Work's notice for, and the
// "follow on {Site} instead" offer taken or declined.

// worksRulesRoutes registers the additions.
func (s *Server) worksRulesRoutes() {
	s.mux.HandleFunc("PUT /api/works/{id}/prefer", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putWorkPrefer))))
	s.mux.HandleFunc("POST /api/works/{id}/follow", s.reader(s.limitWrites(capBody(smallBodyBytes, s.followWork))))
	s.mux.HandleFunc("DELETE /api/works/{id}/follow", s.reader(s.limitWrites(s.declineFollow)))
}

type preferBody struct {
	Site        *string `json:"site"`
	HoldMinutes *int    `json:"hold_minutes"`
}

// putWorkPrefer sets the Reader's preferred Site for a Work they hold
// (an empty site clears it): 200 with the Work.
func (s *Server) putWorkPrefer(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	wk, ok := s.heldWork(w, r, id.ReaderID)
	if !ok {
		return
	}
	var body preferBody
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.Site == nil {
		writeError(w, http.StatusBadRequest, `field "site" is required: send {"site":"mangadex","hold_minutes":60}, or {"site":""} to hold for no Site`)
		return
	}
	p := store.WorkPref{HoldMinutes: store.DefaultHoldMinutes}
	if *body.Site != "" {
		site := s.Sites.Get(*body.Site)
		if site == nil {
			writeError(w, http.StatusBadRequest, "site names no Site; the Sites are: "+s.siteNames())
			return
		}
		p.Site = site.Name
	}
	if body.HoldMinutes != nil {
		p.HoldMinutes = *body.HoldMinutes
	}
	if p.HoldMinutes < store.MinHoldMinutes || p.HoldMinutes > store.MaxHoldMinutes {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("hold_minutes must be %d to %d (a day)", store.MinHoldMinutes, store.MaxHoldMinutes))
		return
	}
	err := s.Store.SetWorkPref(r.Context(), id.ReaderID, wk.ID, p)
	if errors.Is(err, store.ErrNotMemberSite) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Work %d has no member on %s; prefer the Site of one of its members", wk.ID, p.Site))
		return
	}
	if err != nil {
		s.internalError(w, r, "set work prefer", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, wk.ID)
}

// followWork bookmarks a member of a Work the Reader holds, with their
// Progress carried by number: 200 with the Work; the bookmark limits
// answer as POST /api/bookmarks does.
func (s *Server) followWork(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	wk, ok := s.heldWork(w, r, id.ReaderID)
	if !ok {
		return
	}
	var body seriesRefJSON
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.Site == nil || body.SeriesID == nil || *body.SeriesID == "" {
		writeError(w, http.StatusBadRequest, `fields "site" and "series_id" are required: send {"site":"comix","series_id":"..."}, a member of the Work`)
		return
	}
	site := s.Sites.Get(*body.Site)
	if site == nil {
		writeError(w, http.StatusBadRequest, "site names no Site; the Sites are: "+s.siteNames())
		return
	}
	err := s.Store.FollowInstead(r.Context(), id.ReaderID, wk.ID, site.Name, *body.SeriesID, s.Now())
	if s.writeLimitRefusal(w, err) {
		return
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("that Series on %s is no member of Work %d", site.Name, wk.ID))
		return
	}
	if err != nil {
		s.internalError(w, r, "follow work", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, wk.ID)
}

// declineFollow declines the Work's offer for good: 200 with the Work;
// 404 when the Work offers nothing.
func (s *Server) declineFollow(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	wk, ok := s.heldWork(w, r, id.ReaderID)
	if !ok {
		return
	}
	err := s.Store.DeclineFollow(r.Context(), id.ReaderID, wk.ID, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("Work %d offers you no other member to follow", wk.ID))
		return
	}
	if err != nil {
		s.internalError(w, r, "decline follow", err)
		return
	}
	s.writeWorkAfterAct(w, r, id.ReaderID, wk.ID)
}
