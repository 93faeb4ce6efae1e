package api

import "net/http"

// meJSON is the body of GET /api/me.
type meJSON struct {
	DiscordID string `json:"discord_id"`
	Name      string `json:"name"`
	Owner     bool   `json:"owner"`
}

func (s *Server) getMe(w http.ResponseWriter, r *http.Request) {
	id, _ := IdentityFrom(r.Context())
	writeJSON(w, http.StatusOK, meJSON{DiscordID: id.DiscordID, Name: id.Name, Owner: id.Owner})
}
