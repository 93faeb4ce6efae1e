package api

import (
	"errors"
	"fmt"
	"net/http"

	"mangabookmark/backend/admin"
	"mangabookmark/client"
)

// adminMemberOffset sets a Work member's shared offset, for every Reader
// (PUT /api/admin/works/{id}/members/{site}/{series_id}, the same body as
// the Reader's route): the Readers' own offsets on it go. 200
// {"work_id","site","series_id","offset"}; 404 for a Series that is no
// shared member of the Work.
func (s *Server) adminMemberOffset(w http.ResponseWriter, r *http.Request) {
	workID, ok := workIDOr404(w, r)
	if !ok {
		return
	}
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	off, ok := offsetOf(w, r)
	if !ok {
		return
	}
	id := r.PathValue("series_id")
	err := s.Admin.SetSharedOffset(r.Context(), workID, site.Name, id, off)
	if errors.Is(err, admin.ErrNoMember) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("that Series on %s is no shared member of Work %d", site.Name, workID))
		return
	}
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, client.SharedOffset{WorkID: workID, Site: site.Name, SeriesID: id, Offset: off})
}

// adminMemberUnlink takes a member out of a Work for every Reader
// (DELETE /api/admin/works/{id}/members/{site}/{series_id}): the shared
// unlink, which ids never undo. 200 {"work_id","site","series_id"}; 404
// for a Series that is no shared member of the Work.
func (s *Server) adminMemberUnlink(w http.ResponseWriter, r *http.Request) {
	workID, ok := workIDOr404(w, r)
	if !ok {
		return
	}
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	id := r.PathValue("series_id")
	err := s.Admin.UnlinkShared(r.Context(), workID, site.Name, id)
	if errors.Is(err, admin.ErrNoMember) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("that Series on %s is no shared member of Work %d", site.Name, workID))
		return
	}
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, client.SharedUnlink{WorkID: workID, Site: site.Name, SeriesID: id})
}
