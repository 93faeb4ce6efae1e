package api

import (
	"context"
	"net/http"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// SyncKeys mints and revokes a Reader's sync key. *auth.Service
// implements it.
type SyncKeys interface {
	MintSyncKey(ctx context.Context, readerID int64) (string, store.Token, error)
	RevokeSync(ctx context.Context, readerID int64) error
}

var _ SyncKeys = (*auth.Service)(nil)

// meSyncRoutes registers the Reader's side of phone sync (docs/api.md,
// "Phone sync"): an API token of scope reader only, never a sync key.
func (s *Server) meSyncRoutes() {
	s.mux.HandleFunc("GET /api/me/sync", s.reader(s.phoneSync(s.getMeSync)))
	s.mux.HandleFunc("POST /api/me/sync", s.reader(s.limitWrites(s.phoneSync(s.postMeSync))))
	s.mux.HandleFunc("PUT /api/me/sync", s.reader(s.limitWrites(capBody(smallBodyBytes, s.phoneSync(s.putMeSync)))))
	s.mux.HandleFunc("DELETE /api/me/sync", s.reader(s.limitWrites(s.phoneSync(s.deleteMeSync))))
}

// phoneSync answers 503 when this server runs no phone sync (no TOKEN_KEY:
// nothing to seal the libraries under).
func (s *Server) phoneSync(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.PhoneSync == nil {
			writeError(w, http.StatusServiceUnavailable, "this server runs no phone sync (the Owner has not set TOKEN_KEY); ask the Owner")
			return
		}
		h(w, r)
	}
}

// PhoneSyncJSON is a Reader's phone sync in its wire form.
func PhoneSyncJSON(st store.SyncState, host string) client.PhoneSync {
	out := client.PhoneSync{Enabled: st.Enabled, Host: host, AddFavorites: st.AddFavorites,
		Devices: []client.SyncDevice{}, LastUploadAt: st.LastUploadAt, StoredBytes: st.StoredBytes}
	for _, d := range st.Devices {
		out.Devices = append(out.Devices, client.SyncDevice{ID: d.ID, Name: d.Name, LastSyncAt: d.LastSyncAt.UTC()})
	}
	if r := st.LastResult; r != nil {
		res := &client.PhoneSyncResult{Manga: r.Manga, Matched: r.Matched, ProgressMoved: r.ProgressMoved,
			BookmarksAdded: r.BookmarksAdded, NotAdded: r.NotAdded}
		for _, p := range r.NotAddedItems {
			res.NotAddedItems = append(res.NotAddedItems, client.ImportUnsupported{Item: p.Item, Reason: p.Reason})
		}
		out.LastResult = res
	}
	if out.LastUploadAt != nil {
		t := out.LastUploadAt.UTC()
		out.LastUploadAt = &t
	}
	return out
}

func (s *Server) writeMeSync(w http.ResponseWriter, r *http.Request, readerID int64) {
	st, err := s.Store.GetSyncState(r.Context(), readerID)
	if err != nil {
		s.internalError(w, r, "phone sync state", err)
		return
	}
	writeJSON(w, http.StatusOK, PhoneSyncJSON(st, s.BaseURL))
}

func (s *Server) getMeSync(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	s.writeMeSync(w, r, id.ReaderID)
}

func (s *Server) postMeSync(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	keys, ok := s.Auth.(SyncKeys)
	if !ok {
		writeError(w, http.StatusServiceUnavailable, "this server cannot make sync keys; ask the Owner")
		return
	}
	key, _, err := keys.MintSyncKey(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "mint sync key", err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, client.SyncKey{Host: s.BaseURL, Key: key})
}

func (s *Server) putMeSync(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body struct {
		AddFavorites *bool `json:"add_favorites"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.AddFavorites == nil {
		writeError(w, http.StatusBadRequest, `field "add_favorites" is required: send {"add_favorites":true} or false`)
		return
	}
	if err := s.Store.SetSyncAddFavorites(r.Context(), id.ReaderID, *body.AddFavorites); err != nil {
		s.internalError(w, r, "set sync add favorites", err)
		return
	}
	s.writeMeSync(w, r, id.ReaderID)
}

func (s *Server) deleteMeSync(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	keys, ok := s.Auth.(SyncKeys)
	if !ok {
		writeError(w, http.StatusServiceUnavailable, "this server cannot revoke sync keys; ask the Owner")
		return
	}
	if err := keys.RevokeSync(r.Context(), id.ReaderID); err != nil {
		s.internalError(w, r, "revoke sync key", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
