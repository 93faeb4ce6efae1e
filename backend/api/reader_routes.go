package api

// readerRoutes registers the Reader API, the covers and the userscript.
// Writes go through the per-token limiter; reads do not.
func (s *Server) readerRoutes() {
	s.mux.HandleFunc("GET /api/me", s.reader(s.getMe))
	s.mux.HandleFunc("GET /api/bookmarks", s.reader(s.listBookmarks))
	s.mux.HandleFunc("POST /api/bookmarks", s.reader(s.limitWrites(s.addBookmark)))
	s.mux.HandleFunc("DELETE /api/bookmarks/{site}/{series_id}", s.reader(s.limitWrites(s.removeBookmark)))
	s.mux.HandleFunc("POST /api/progress", s.reader(s.limitWrites(s.postProgress)))
	s.mux.HandleFunc("GET /covers/{site}/{series_id}", s.reader(s.getCover))
	s.mux.HandleFunc("GET /userscript/mangabookmark.user.js", s.getUserscript)
}
