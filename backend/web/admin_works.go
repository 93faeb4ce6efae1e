package web

import (
	"errors"
	"net/http"
	"strconv"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/store"
)

// The Owner's Work view (/admin/works/{id}): a Work's shared members, and
// the Owner's two acts on the facts every Reader shares
// (docs/adr/0021-works-link-by-ids.md, "Offsets per Reader", "Unlinks per
// Reader"): a member's shared offset, and the shared unlink. Both go
// through the admin rules, as PUT and DELETE /api/admin/works/… do.

// adminWorkID reads the Work id of the path, answering 404 itself.
func (h *Handler) adminWorkID(w http.ResponseWriter, r *http.Request, raw string) (int64, bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		h.errorPage(w, r, http.StatusNotFound, "No such Work", "Give a Work's number, as the Readers' Work pages show it (/works/N).")
		return 0, false
	}
	return id, true
}

// adminWorkOpen is the /admin Works form's "open": 303 to the Work view.
func (h *Handler) adminWorkOpen(w http.ResponseWriter, r *http.Request) {
	id, ok := h.adminWorkID(w, r, r.URL.Query().Get("id"))
	if ok {
		seeOther(w, r, "/admin/works/"+strconv.FormatInt(id, 10))
	}
}

// adminWorkPage shows a Work's shared members with the Owner's forms.
func (h *Handler) adminWorkPage(w http.ResponseWriter, r *http.Request) {
	id, ok := h.adminWorkID(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	wk, err := h.Admin.Work(r.Context(), id)
	if errors.Is(err, admin.ErrNoWork) {
		h.errorPage(w, r, http.StatusNotFound, "No such Work", "Work "+strconv.FormatInt(id, 10)+" has no shared member: it was dissolved, or never was.")
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "admin_work", page{Title: "Work " + strconv.FormatInt(id, 10), V: viewerFrom(r.Context()), Admin: true,
		Adm: &adminView{Work: &wk, Back: "/admin/works/" + strconv.FormatInt(id, 10)}})
}

// adminSharedOffset sets a member's shared offset for every Reader (the
// Readers' own offsets on it are cleared), as PUT /api/admin/works/….
func (h *Handler) adminSharedOffset(w http.ResponseWriter, r *http.Request) {
	id, ok := h.adminWorkID(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	off, err := store.ParseOffset(r.PostFormValue("offset"))
	if err != nil {
		h.errorPage(w, r, http.StatusBadRequest, "Not an offset", "Not an offset: "+err.Error()+". Nothing was saved.")
		return
	}
	err = h.Admin.SetSharedOffset(r.Context(), id, r.PathValue("site"), r.PathValue("series_id"), off)
	h.afterWorkAct(w, r, id, err)
}

// adminSharedUnlink takes a member out of the Work for every Reader, as
// DELETE /api/admin/works/….
func (h *Handler) adminSharedUnlink(w http.ResponseWriter, r *http.Request) {
	id, ok := h.adminWorkID(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	err := h.Admin.UnlinkShared(r.Context(), id, r.PathValue("site"), r.PathValue("series_id"))
	h.afterWorkAct(w, r, id, err)
}

// afterWorkAct answers a Work act: 404 for a Series that is no shared
// member, else 303 to the Work view (or /admin when none is left).
func (h *Handler) afterWorkAct(w http.ResponseWriter, r *http.Request, id int64, err error) {
	switch {
	case errors.Is(err, admin.ErrNoMember):
		h.errorPage(w, r, http.StatusNotFound, "No such member", "That Series is no shared member of Work "+strconv.FormatInt(id, 10)+": nothing was changed.")
		return
	case err != nil:
		h.unavailable(w, r, err)
		return
	}
	to := "/admin/works/" + strconv.FormatInt(id, 10)
	if _, err := h.Admin.Work(r.Context(), id); errors.Is(err, admin.ErrNoWork) {
		to = "/admin"
	}
	seeOther(w, r, to)
}
