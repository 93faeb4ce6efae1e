package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/api/client"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// back is where an act returns to: the form's local /admin path, else the
// Lane's page.
func back(r *http.Request, site string) string {
	b := r.PostFormValue("back")
	if strings.HasPrefix(b, "/admin") && !strings.ContainsAny(b, "\\\r\n") && !strings.HasPrefix(b, "//") {
		return b
	}
	return "/admin/lanes/" + site
}

func (h *Handler) actSite(w http.ResponseWriter, r *http.Request) *sites.Site {
	site := h.Sites.Get(r.PathValue("site"))
	if site == nil {
		h.errorPage(w, r, http.StatusNotFound, "No such Site", "There is no Lane by that name.")
	}
	return site
}

// force asks the Lane to read a Series at once (the admin API's Force).
func (h *Handler) force(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	_, err := h.Store.ForcePoll(r.Context(), site.Name, r.PathValue("series_id"), h.Now())
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "No such Series", "That Series is not known on "+site.Name+".")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.Admin.WakeLane(site.Name)
	h.Log.Info("web force", "site", site.Name, "series_id", r.PathValue("series_id"))
	seeOther(w, r, back(r, site.Name))
}

// pause pauses a Lane for the form's `for` (seconds, or a duration such as
// "2h") with its reason, validated as the admin API does.
func (h *Handler) pause(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	forS, ok := parseFor(r.PostFormValue("for"))
	if !ok {
		h.errorPage(w, r, http.StatusBadRequest, "Pause not applied", "Give the pause a length: whole seconds or a duration such as 30m or 2h.")
		return
	}
	now := h.Now()
	until, msg := api.PauseUntil(client.PauseRequest{ForS: &forS}, now)
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	if msg == "" && len([]rune(reason)) > api.MaxPauseReason {
		msg = "the reason is longer than " + strconv.Itoa(api.MaxPauseReason) + " characters"
	}
	if msg != "" {
		h.errorPage(w, r, http.StatusBadRequest, "Pause not applied", "The pause was refused: "+msg+".")
		return
	}
	if _, err := h.Store.PauseLane(r.Context(), site.Name, until, reason); err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.Admin.WakeLane(site.Name)
	h.Log.Info("web pause", "site", site.Name, "until", until.UTC())
	seeOther(w, r, back(r, site.Name))
}

// parseFor reads whole seconds or a Go duration of at least a second.
func parseFor(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, false
	}
	return int64(d / time.Second), true
}

func (h *Handler) resume(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	if _, err := h.Store.ResumeLane(r.Context(), site.Name); err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.Admin.WakeLane(site.Name)
	h.Log.Info("web resume", "site", site.Name)
	seeOther(w, r, back(r, site.Name))
}
