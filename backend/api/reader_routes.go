package api

// readerRoutes registers the Reader API (owned by the Readers work: issue 6).
func (s *Server) readerRoutes() {}
