package api

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Limits of the list endpoints.
const (
	adminPassesDefault  = 50
	adminPassesMax      = 1000
	adminFailingDefault = 500
	adminFailingMax     = 10000
)

func (s *Server) adminPasses(w http.ResponseWriter, r *http.Request) {
	site, ok := s.adminSite(w, r)
	if !ok {
		return
	}
	limit, ok := adminLimit(w, r, adminPassesDefault, adminPassesMax)
	if !ok {
		return
	}
	passes, err := s.Admin.Passes(r.Context(), site.Name, limit)
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	out := client.PassesResponse{Passes: make([]client.Pass, len(passes))}
	for i, p := range passes {
		out.Passes[i] = admin.PassView(p)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) adminFailing(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.AdminFailingFilter{Site: q.Get("site"), Outcome: q.Get("outcome")}
	if f.Site != "" && s.Sites.Get(f.Site) == nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("site=%q is not a known Site; the known Sites are %s",
			f.Site, s.siteNames()))
		return
	}
	if f.Outcome != "" && !slices.Contains(client.Outcomes, f.Outcome) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("outcome=%q is not a failure outcome; use one of %s",
			f.Outcome, strings.Join(client.Outcomes, ", ")))
		return
	}
	limit, ok := adminLimit(w, r, adminFailingDefault, adminFailingMax)
	if !ok {
		return
	}
	f.Limit = limit
	rows, total, err := s.Admin.Failing(r.Context(), f)
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	out := client.FailingResponse{Failing: make([]client.Failing, len(rows)), Total: total}
	for i, a := range rows {
		out.Failing[i] = admin.FailingView(a)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) adminNotices(w http.ResponseWriter, r *http.Request) {
	rows, err := s.Admin.Notices(r.Context())
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	out := client.NoticesResponse{Notices: make([]client.Notice, len(rows))}
	for i, n := range rows {
		out.Notices[i] = admin.NoticeView(n)
	}
	if s.ReaderNotices != nil {
		rn, err := s.readerNotices(r)
		if err != nil {
			s.adminInternalError(w, r, err)
			return
		}
		out.Readers = rn
	}
	ts, err := s.Admin.TrackerStates(r.Context())
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	out.Trackers = &ts
	if s.PhoneSync != nil {
		sc, err := s.Admin.SyncCounts(r.Context())
		if err != nil {
			s.adminInternalError(w, r, err)
			return
		}
		out.PhoneSync = &sc
	}
	writeJSON(w, http.StatusOK, out)
}

// adminWorks answers how many Works and links exist, by how made.
func (s *Server) adminWorks(w http.ResponseWriter, r *http.Request) {
	out, err := s.Admin.WorkCounts(r.Context())
	if err != nil {
		s.adminInternalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// adminLimit reads ?limit=, answering 400 itself when it is not a whole
// number from 1 to max.
func adminLimit(w http.ResponseWriter, r *http.Request, def, max int) (int, bool) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("limit=%q must be a whole number from 1 to %d", v, max))
		return 0, false
	}
	return n, true
}
