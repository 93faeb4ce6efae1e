package api

import (
	"net/http"

	"mangabookmark/client"
)

func (s *Server) getMe(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	writeJSON(w, http.StatusOK, client.Me{DiscordID: id.DiscordID, Name: id.Name, Owner: id.Owner})
}
