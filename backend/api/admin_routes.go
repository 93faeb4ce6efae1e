package api

// adminRoutes registers the Owner's admin API (docs/api.md, Admin). Every
// route is wrapped in s.admin: 401 without a valid token, 403 for a Reader.
func (s *Server) adminRoutes() {
	s.mux.HandleFunc("GET /api/admin/lanes", s.admin(s.adminLanes))
	s.mux.HandleFunc("GET /api/admin/lanes/{site}/passes", s.admin(s.adminPasses))
	s.mux.HandleFunc("POST /api/admin/lanes/{site}/pause", s.admin(capBody(urlBodyBytes, s.adminPause)))
	s.mux.HandleFunc("DELETE /api/admin/lanes/{site}/pause", s.admin(s.adminResume))
	s.mux.HandleFunc("GET /api/admin/failing", s.admin(s.adminFailing))
	s.mux.HandleFunc("POST /api/admin/series/{site}/{series_id}/force", s.admin(s.adminForce))
	s.mux.HandleFunc("GET /api/admin/notices", s.admin(s.adminNotices))
	s.mux.HandleFunc("GET /api/admin/works", s.admin(s.adminWorks))
	s.mux.HandleFunc("PUT /api/admin/works/{id}/members/{site}/{series_id}", s.admin(capBody(smallBodyBytes, s.adminMemberOffset)))
	s.mux.HandleFunc("DELETE /api/admin/works/{id}/members/{site}/{series_id}", s.admin(s.adminMemberUnlink))
}
