package api

import (
	"errors"
	"fmt"
	"net/http"

	"mangabookmark/backend/readernotice"
	"mangabookmark/client"
)

// pushRoutes registers the Web Push part of the Reader notices: the VAPID
// public key (no auth: a page needs it before it can subscribe) and a
// Reader's browser subscriptions. Without a notice service they answer
// 503.
func (s *Server) pushRoutes() {
	s.mux.HandleFunc("GET /push/key", s.notices(s.getPushKey))
	s.mux.HandleFunc("POST /api/push/subscriptions", s.reader(s.limitWrites(capBody(urlBodyBytes, s.notices(s.postPushSubscription)))))
	s.mux.HandleFunc("DELETE /api/push/subscriptions", s.reader(s.limitWrites(capBody(urlBodyBytes, s.notices(s.deletePushSubscription)))))
}

func (s *Server) getPushKey(w http.ResponseWriter, r *http.Request) {
	k, err := s.ReaderNotices.PushKey(r.Context())
	if err != nil {
		s.internalError(w, r, "push key", err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, client.PushKey{VAPIDPublicKey: k})
}

// pushSubscriptionOf is a browser's subscription JSON as the notice
// service takes it.
func pushSubscriptionOf(p client.PushSubscription) readernotice.PushSubscription {
	return readernotice.PushSubscription{Endpoint: p.Endpoint, P256dh: p.Keys.P256dh, Auth: p.Keys.Auth}
}

func (s *Server) postPushSubscription(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body client.PushSubscription
	if !decodeJSON(w, r, &body) {
		return
	}
	err := s.ReaderNotices.Subscribe(r.Context(), id.ReaderID, pushSubscriptionOf(body))
	var fe *readernotice.FieldError
	if errors.As(err, &fe) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("field %q: %s", fe.Field, fe.Msg))
		return
	}
	var taken *readernotice.EndpointTakenError
	if errors.As(err, &taken) {
		writeError(w, http.StatusConflict, taken.Reason())
		return
	}
	if err != nil {
		s.internalError(w, r, "push subscribe", err)
		return
	}
	writeJSON(w, http.StatusCreated, client.PushUnsubscribe{Endpoint: body.Endpoint})
}

func (s *Server) deletePushSubscription(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body client.PushUnsubscribe
	if !decodeJSON(w, r, &body) {
		return
	}
	if body.Endpoint == "" {
		writeError(w, http.StatusBadRequest, `field "endpoint": name the subscription's endpoint to remove`)
		return
	}
	if _, err := s.ReaderNotices.Unsubscribe(r.Context(), id.ReaderID, body.Endpoint); err != nil {
		s.internalError(w, r, "push unsubscribe", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
