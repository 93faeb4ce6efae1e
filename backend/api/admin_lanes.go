package api

import (
	"net/http"

	"mangabookmark/backend/sites"
	"mangabookmark/client"
)

func (s *Server) adminLanes(w http.ResponseWriter, r *http.Request) {
	lanes, err := s.Admin.LaneViews(r.Context())
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, client.LanesResponse{Lanes: lanes})
}

// adminSite resolves {site}, answering 404 naming the known Sites when
// it is not one of them.
func (s *Server) adminSite(w http.ResponseWriter, r *http.Request) (*sites.Site, bool) {
	site := s.siteOr404(w, r.PathValue("site"))
	return site, site != nil
}

func (s *Server) adminInternalError(w http.ResponseWriter, r *http.Request, err error) {
	s.internalError(w, r, "admin request failed", err)
}
