package api

import "mangabookmark/backend/userscript"

// readerRoutes registers the Reader API, the covers and the userscript.
// Writes go through the per-token limiter (429 past it); reads do not.
//
// Decisions the contract leaves open:
//   - POST /api/bookmarks answers 201 for a new bookmark and 200 with the
//     same body when the Reader already had it (idempotent re-add). Any URL
//     the canonicaliser cannot place is 422 with its reason.
//   - DELETE /api/bookmarks/{site}/{series_id} is 204; an unknown Site or a
//     bookmark the Reader does not have is 404. The last bookmark of a
//     Series takes the Series with it (orphan removal, one statement).
//   - POST /api/progress: Progress is the furthest chapter read. Only the
//     number decides (numerically, in SQL); read_at is stored with the
//     number that set it and never moves Progress on its own. So a replay,
//     an older chapter, or a batch in any order leaves the same result. A
//     read creates the Series and the bookmark when missing. Invalid reads
//     are listed in "errors" by index and the valid ones still apply:
//     applied + ignored + len(errors) = len(reads).
//     A read more than store.PastLatestMargin chapters past a known Latest
//     Chapter is refused ("past_latest: ..."); a read of a Series the
//     Reader has not bookmarked, with auto_add_reads off, is ignored.
//   - "new" in the bookmarks list is true when a Latest Chapter is known,
//     the Reader has Progress, and the Latest Chapter's number is greater.
//     A bookmark with no Progress is not new: nothing read yet to be behind.
//   - GET /covers/{site}/{series_id} sits behind a Reader token (or a web
//     session, for the library page's images) like the
//     rest of the Reader table, with ETag, Last-Modified and private caching.
func (s *Server) readerRoutes() {
	s.mux.HandleFunc("GET /api/me", s.reader(s.getMe))
	s.mux.HandleFunc("GET /api/bookmarks", s.reader(s.listBookmarks))
	s.mux.HandleFunc("POST /api/bookmarks", s.reader(s.limitWrites(capBody(urlBodyBytes, s.addBookmark))))
	s.mux.HandleFunc("DELETE /api/bookmarks/{site}/{series_id}", s.reader(s.limitWrites(s.removeBookmark)))
	s.mux.HandleFunc("POST /api/progress", s.reader(s.limitWrites(s.postProgress)))
	s.correctionRoutes()
	s.worksRoutes()
	s.stateRoutes()
	s.updatesRoutes()
	s.mux.HandleFunc("GET /covers/{site}/{series_id}", s.readerOrSession(s.getCover))
	s.mux.HandleFunc("GET "+userscript.Path, s.getUserscript)
}
