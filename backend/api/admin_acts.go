package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/store"
)

// Bounds of a pause: long enough for any outage, short enough that a typo
// in a script does not silence a Lane for a lifetime.
const (
	adminMaxPause  = 366 * 24 * time.Hour
	adminMaxReason = 500
)

func (s *Server) adminForce(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	id := r.PathValue("series_id")
	at, err := s.Store.ForcePoll(r.Context(), site.Name, id, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no Series %q on %s; check the id with `mbctl failing --site %s` or the Reader's bookmarks", id, site.Name, site.Name))
		return
	}
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	if s.Lanes != nil {
		s.Lanes.Wake(site.Name)
	}
	writeJSON(w, http.StatusAccepted, client.ForceResponse{ForcePollAt: at.UTC()})
}

func (s *Server) adminPause(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	var req client.PauseRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	now := s.Now()
	until, msg := adminPauseUntil(req, now)
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	if len([]rune(req.Reason)) > adminMaxReason {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("reason is longer than %d characters", adminMaxReason))
		return
	}
	if _, err := s.Store.PauseLane(r.Context(), site.Name, until, req.Reason); err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	s.adminLaneAfterAct(w, r, site)
}

// adminPauseUntil validates a pause body and returns its end, or a message for
// a 400.
func adminPauseUntil(req client.PauseRequest, now time.Time) (time.Time, string) {
	switch {
	case req.ForS != nil && req.Until != nil:
		return time.Time{}, `send either "for_s" or "until", not both`
	case req.ForS == nil && req.Until == nil:
		return time.Time{}, `send "for_s" (seconds, above 0) or "until" (an RFC 3339 time in the future)`
	case req.ForS != nil:
		if *req.ForS <= 0 {
			return time.Time{}, fmt.Sprintf(`"for_s" must be above 0, not %d`, *req.ForS)
		}
		if *req.ForS > int64(adminMaxPause/time.Second) {
			return time.Time{}, fmt.Sprintf(`"for_s" must be at most %d (366 days)`, int64(adminMaxPause/time.Second))
		}
		return now.Add(time.Duration(*req.ForS) * time.Second), ""
	}
	if !req.Until.After(now) {
		return time.Time{}, fmt.Sprintf(`"until" (%s) is not in the future`, req.Until.UTC().Format(time.RFC3339))
	}
	if req.Until.Sub(now) > adminMaxPause {
		return time.Time{}, `"until" must be at most 366 days ahead`
	}
	return *req.Until, ""
}

func (s *Server) adminResume(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	if _, err := s.Store.ResumeLane(r.Context(), site.Name); err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	s.adminLaneAfterAct(w, r, site)
}
