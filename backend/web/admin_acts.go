package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/sites"
	"mangabookmark/client"
)

// back is where an act returns to: the form's local /admin path, else the
// Lane's page.
func back(r *http.Request, site string) string {
	return backOf(r.PostFormValue("back"), site)
}

// backOf is back for a given path b: a local /admin path, else the Lane's
// page.
func backOf(b, site string) string {
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

// forceQuestion is the Series Force asks about, with where its form
// posts and where it returns.
type forceQuestion struct {
	Site, SeriesID, Path, Back string
}

// forceAsk is Force's question (GET /admin/series/{site}/{series_id}/force):
// what Force does, the form that does it and a way back. Force asks once:
// the failing tables' Force buttons open this page, and a POST without
// confirm=yes shows it again rather than acting. It needs no script.
func (h *Handler) forceAsk(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	h.askForce(w, r, site.Name, backOf(r.URL.Query().Get("back"), site.Name))
}

// askForce renders the Force question.
func (h *Handler) askForce(w http.ResponseWriter, r *http.Request, site, back string) {
	id := r.PathValue("series_id")
	q := &forceQuestion{Site: site, SeriesID: id, Back: back,
		Path: "/admin/series/" + pathEscape(site) + "/" + pathEscape(id) + "/force"}
	h.render(w, r, http.StatusOK, "force", page{Title: "Force a read?", V: viewerFrom(r.Context()), Admin: true,
		Adm: &adminView{Force: q, Now: h.Now()}})
}

// force asks the Lane to read a Series at once (the admin API's Force),
// once the Owner answered its question (confirm=yes); without the answer
// it shows the question and does nothing.
func (h *Handler) force(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		h.askForce(w, r, site.Name, back(r, site.Name))
		return
	}
	_, err := h.Admin.Force(r.Context(), site.Name, r.PathValue("series_id"))
	if errors.Is(err, admin.ErrNoSeries) {
		h.errorPage(w, r, http.StatusNotFound, "No such Series", "That Series is not known on "+site.Name+".")
		return
	}
	h.afterAct(w, r, err, site.Name)
}

// pause pauses a Lane for the form's `for` (seconds, or a duration such as
// "2h" or "1d") with its reason, by the admin API's rules.
func (h *Handler) pause(w http.ResponseWriter, r *http.Request) {
	site := h.actSite(w, r)
	if site == nil {
		return
	}
	forS, ok := parseFor(r.PostFormValue("for"))
	if !ok {
		h.errorPage(w, r, http.StatusBadRequest, "Pause not applied", "Give the pause a length: whole seconds or a duration such as 30m, 2h or 1d.")
		return
	}
	err := h.Admin.Pause(r.Context(), site.Name, client.PauseRequest{ForS: &forS, Reason: r.PostFormValue("reason")})
	h.afterAct(w, r, err, site.Name)
}

// parseFor reads whole seconds (any sign: the admin rules refuse what is
// not above 0) or a duration as mbctl reads it (client.ParseDuration).
func parseFor(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	d, err := client.ParseDuration(s)
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
	h.afterAct(w, r, h.Admin.Resume(r.Context(), site.Name), site.Name)
}

// afterAct answers an act: 400 with the admin rules' reason for a refused
// one, the unavailable page for a store failure, else 303 back.
func (h *Handler) afterAct(w http.ResponseWriter, r *http.Request, err error, site string) {
	var in *admin.InputError
	if errors.As(err, &in) {
		h.errorPage(w, r, http.StatusBadRequest, "Not applied", "The act was refused: "+in.Reason+".")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, back(r, site))
}
