// Package mangabaka is MangaBaka as a trackers.Service and a
// trackers.TokenLister: the Reader's library read and written over
// MangaBaka's REST API (GET /v1/my/library in pages, GET, PUT and POST
// /v1/my/library/{series_id}, GET /v1/my/profile) with the personal access
// token the Reader pasted, sent in the x-api-key header and nowhere else.
// MangaBaka has no public lists, so a pull reads with the token too. Every
// request is paced by one trackers.Limiter per process; answers are read
// with bounds, and lenient where MangaBaka's types are loose (a chapter
// count as a number or a numeric string); MangaBaka's ways of saying no
// map to the room's typed errors (401: ErrTokenRefused; 404 for an entry:
// not on the list; 429: wait its Retry-After and ask again). The shapes
// and their sources are in testdata/README.md; the local stand-in the
// tests talk to is mangabakatest.
package mangabaka
