package api

// adminRoutes registers the admin API (owned by the console work: issue 7).
func (s *Server) adminRoutes() {}
