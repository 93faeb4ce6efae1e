package api

import (
	"errors"
	"net/http"

	"mangabookmark/backend/trackersync"
	"mangabookmark/client"
)

// trackerBodyBytes bounds a tracker body: a user name and two switches, or
// a pasted token (an AniList JWT is about a kilobyte; a MangaBaka personal
// access token is shorter).
const trackerBodyBytes = 20 << 10

// trackerRoutes registers the Trackers part of the contract (docs/api.md,
// "Trackers"), one path per tracker this build knows. Without a tracker
// service (Config.Trackers nil: no TOKEN_KEY) they answer 503.
func (s *Server) trackerRoutes() {
	s.mux.HandleFunc("GET /api/me/trackers", s.reader(s.trackers(s.listTrackers)))
	for _, name := range trackersync.Services {
		p := "/api/me/trackers/" + name
		s.mux.HandleFunc("PUT "+p, s.reader(s.limitWrites(capBody(trackerBodyBytes, s.trackers(s.putTracker(name))))))
		s.mux.HandleFunc("POST "+p+"/token", s.reader(s.limitWrites(capBody(trackerBodyBytes, s.trackers(s.putTrackerToken(name))))))
		s.mux.HandleFunc("POST "+p+"/pull", s.reader(s.limitWrites(s.trackers(s.pullTracker(name)))))
		s.mux.HandleFunc("DELETE "+p, s.reader(s.limitWrites(s.trackers(s.forgetTracker(name)))))
	}
}

func (s *Server) trackers(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.Trackers == nil {
			writeError(w, http.StatusServiceUnavailable, "this server runs no trackers (the Owner has not set TOKEN_KEY); ask the Owner")
			return
		}
		h(w, r)
	}
}

// trackerError answers a tracker service's error: a refusal 400 with its
// reason, an unknown tracker 404, a tracker that cannot answer 503.
func (s *Server) trackerError(w http.ResponseWriter, r *http.Request, what string, err error) {
	var ref *trackersync.Refusal
	switch {
	case errors.As(err, &ref):
		writeError(w, http.StatusBadRequest, ref.Reason)
	case errors.Is(err, trackersync.ErrUnknownService):
		writeError(w, http.StatusNotFound, "no such tracker on this server")
	case errors.Is(err, trackersync.ErrUnavailable):
		s.Log.Warn("tracker unavailable", "what", what, "error", err)
		writeError(w, http.StatusServiceUnavailable, "the tracker cannot answer right now; try again in a minute")
	default:
		s.internalError(w, r, what, err)
	}
}

func (s *Server) listTrackers(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	ts, err := s.Trackers.List(r.Context(), id.ReaderID)
	if err != nil {
		s.trackerError(w, r, "list trackers", err)
		return
	}
	writeJSON(w, http.StatusOK, client.TrackersResponse{Trackers: ts})
}

type trackerBody struct {
	Username *string `json:"username"`
	Pull     *bool   `json:"pull"`
	Push     *bool   `json:"push"`
}

func (s *Server) putTracker(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := identityFrom(r.Context())
		var body trackerBody
		if !decodeJSON(w, r, &body) {
			return
		}
		byToken := trackersync.PullsByToken(name)
		switch {
		case byToken && (body.Pull == nil || body.Push == nil):
			writeError(w, http.StatusBadRequest, `fields "pull" and "push" are required: send {"pull":true,"push":true}`)
			return
		case !byToken && (body.Username == nil || body.Pull == nil || body.Push == nil):
			writeError(w, http.StatusBadRequest, `fields "username", "pull" and "push" are required: send {"username":"...","pull":true,"push":false}`)
			return
		}
		username := ""
		if body.Username != nil {
			username = *body.Username // a token tracker's name is its token's account: ignored
		}
		if err := s.Trackers.Save(r.Context(), id.ReaderID, name, username, *body.Pull, *body.Push); err != nil {
			s.trackerError(w, r, "save tracker", err)
			return
		}
		s.answerTracker(w, r, id.ReaderID, name)
	}
}

// answerTracker answers 200 with the Reader's tracker as it now stands.
func (s *Server) answerTracker(w http.ResponseWriter, r *http.Request, readerID int64, name string) {
	ts, err := s.Trackers.List(r.Context(), readerID)
	if err != nil {
		s.trackerError(w, r, "list trackers", err)
		return
	}
	for _, t := range ts {
		if t.Service == name {
			writeJSON(w, http.StatusOK, t)
			return
		}
	}
	writeError(w, http.StatusNotFound, "no such tracker on this server")
}

type trackerTokenBody struct {
	Token string `json:"token"`
}

func (s *Server) putTrackerToken(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := identityFrom(r.Context())
		var body trackerTokenBody
		if !decodeJSON(w, r, &body) {
			return
		}
		if err := s.Trackers.SetToken(r.Context(), id.ReaderID, name, body.Token); err != nil {
			s.trackerError(w, r, "set tracker token", err)
			return
		}
		s.answerTracker(w, r, id.ReaderID, name)
	}
}

func (s *Server) pullTracker(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := identityFrom(r.Context())
		if err := s.Trackers.PullNow(r.Context(), id.ReaderID, name); err != nil {
			s.trackerError(w, r, "pull tracker", err)
			return
		}
		writeJSON(w, http.StatusAccepted, map[string]bool{"queued": true})
	}
}

func (s *Server) forgetTracker(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := identityFrom(r.Context())
		if err := s.Trackers.Forget(r.Context(), id.ReaderID, name); err != nil {
			s.trackerError(w, r, "forget tracker", err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}
