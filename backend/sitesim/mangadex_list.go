package sitesim

import (
	"net/http"
	"strconv"
	"strings"
)

// A public MangaDex custom list (MDList), as GET /list/{id} of MangaDex's
// API answers it: a CustomListResponse ({"result":"ok","response":"entity",
// "data":CustomList}) whose CustomList carries the list's name, visibility
// and version as attributes and its manga (and owner) as relationships
// ({"id","type":"manga"|"user"}). The shape follows MangaDex's OpenAPI
// document (api.yaml, the CustomList and CustomListResponse schemas, as
// published at api.mangadex.org/docs; last checked 2026-12-01).
// MangaDexListID names the lists the simulator serves.

// listSalt keeps list ids apart from every Series id.
const listSalt = 7

// MangaDexListID is the id of a public list on the simulated MangaDex
// holding its first n Series (n at most the Series per Site).
func (s *Sim) MangaDexListID(n int) string { return uuidFor("list", 4, uint64(n), listSalt) }

// serveMangaDexList answers GET /list/{id}.
func (s *Sim) serveMangaDexList(w http.ResponseWriter, id string) {
	id = strings.ToLower(id)
	n, ok := listSize(id)
	if !ok || n > s.cfg.SeriesPerSite {
		writeJSON(w, http.StatusNotFound, map[string]any{"result": "error", "errors": []any{map[string]any{
			"status": 404, "title": "not_found_http_exception", "detail": "CustomList with id " + id + " not found"}}})
		return
	}
	rel := make([]any, 0, n+1)
	for i := 0; i < n; i++ {
		rel = append(rel, map[string]any{"id": seriesID(MangaDex, i), "type": "manga"})
	}
	rel = append(rel, map[string]any{"id": uuidFor("user", 4, uint64(n), listSalt), "type": "user"})
	writeJSON(w, http.StatusOK, map[string]any{"result": "ok", "response": "entity", "data": map[string]any{
		"id": id, "type": "custom_list",
		"attributes":    map[string]any{"name": "Reading " + strconv.Itoa(n), "visibility": "public", "version": 1},
		"relationships": rel,
	}})
}

// listSize is the n of a MangaDexListID.
func listSize(id string) (int, bool) {
	k := strings.LastIndexByte(id, '-')
	if k < 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(id[k+1:], 16, 48)
	if err != nil || n > 1<<20 || uuidFor("list", 4, n, listSalt) != id {
		return 0, false
	}
	return int(n), true
}
