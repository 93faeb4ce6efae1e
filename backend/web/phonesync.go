package web

import (
	"context"
	"net/http"

	"mangabookmark/backend/store"
)

// SyncKeys makes and revokes a Reader's sync key for the settings page's
// Phone sync card (*auth.Service implements it; cmd gives it only when
// the server runs the phone sync).
type SyncKeys interface {
	MintSyncKey(ctx context.Context, readerID int64) (string, store.Token, error)
	RevokeSync(ctx context.Context, readerID int64) error
}

// syncCard is the Phone sync card: the Reader's sync, the host to type
// into the app, and a key just made (shown once).
type syncCard struct {
	S    store.SyncState
	Host string
	Key  string
}

// phoneSyncRoutes registers the Phone sync card's forms.
func (h *Handler) phoneSyncRoutes() {
	h.handle("POST /notices/sync/key", h.syncing(h.post(h.makeSyncKey)))
	h.handle("POST /notices/sync/revoke", h.syncing(h.post(h.revokeSyncKey)))
	h.handle("POST /notices/sync/favorites", h.syncing(h.post(h.saveSyncFavorites)))
}

// syncing answers 404 when the server runs no phone sync.
func (h *Handler) syncing(fn http.HandlerFunc) http.HandlerFunc {
	return h.session(func(w http.ResponseWriter, r *http.Request) {
		if h.SyncKeys == nil {
			h.errorPage(w, r, http.StatusNotFound, "Not found", "This server runs no phone sync.")
			return
		}
		fn(w, r)
	})
}

// syncCardFor reads the card of a Reader (nil when the server runs no
// phone sync).
func (h *Handler) syncCardFor(ctx context.Context, readerID int64) (*syncCard, error) {
	if h.SyncKeys == nil {
		return nil, nil
	}
	st, err := h.Store.GetSyncState(ctx, readerID)
	if err != nil {
		return nil, err
	}
	return &syncCard{S: st, Host: h.BaseURL}, nil
}

func (h *Handler) makeSyncKey(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	key, _, err := h.SyncKeys.MintSyncKey(r.Context(), v.ReaderID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	h.showSettings(w, r, http.StatusOK, &noticesView{SyncKey: key}, nil)
}

func (h *Handler) revokeSyncKey(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if err := h.SyncKeys.RevokeSync(r.Context(), v.ReaderID); err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/settings#phone-sync")
}

func (h *Handler) saveSyncFavorites(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if err := h.Store.SetSyncAddFavorites(r.Context(), v.ReaderID, r.PostFormValue("add_favorites") == "on"); err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/settings#phone-sync")
}
