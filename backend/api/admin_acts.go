package api

import (
	"errors"
	"fmt"
	"net/http"

	"mangabookmark/backend/admin"
	"mangabookmark/client"
)

func (s *Server) adminForce(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	id := r.PathValue("series_id")
	at, err := s.Admin.Force(r.Context(), site.Name, id)
	if errors.Is(err, admin.ErrNoSeries) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no Series %q on %s; check the id with `mbctl failing --site %s` or the Reader's bookmarks", id, site.Name, site.Name))
		return
	}
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, client.ForceResponse{ForcePollAt: at.UTC()})
}

func (s *Server) adminPause(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	var req client.PauseRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	s.adminLaneAfterAct(w, r, s.Admin.Pause(r.Context(), site.Name, req), site.Name)
}

func (s *Server) adminResume(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	s.adminLaneAfterAct(w, r, s.Admin.Resume(r.Context(), site.Name), site.Name)
}

// adminLaneAfterAct answers a pause or resume: 400 with the reason for a
// refused one, else the Lane as it now stands.
func (s *Server) adminLaneAfterAct(w http.ResponseWriter, r *http.Request, err error, site string) {
	var in *admin.InputError
	if errors.As(err, &in) {
		writeError(w, http.StatusBadRequest, in.Reason)
		return
	}
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	l, err := s.Admin.Lane(r.Context(), site)
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, l)
}
