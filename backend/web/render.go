package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/client"
)

// page is what every template renders from; each page fills its part.
type page struct {
	Title        string
	V            *viewer
	Admin        bool // an Owner page: the fault palette, never the ember
	Message      string
	DiscordLogin bool
	Lib          *libraryView
	Series       *seriesView // a Series page (series.go)
	Work         *workView   // a Work page (works.go)
	Adm          *adminView
	Notify       *noticesView // the notices settings page (notices.go)
	Welcome      *welcomeView
	Imp          *importView
	Flash        *flashView   // what the last act did, shown once (flash.go)
	Upd          *updatesView // the Updates page (updates.go)
}

// bufs holds page buffers between requests: a 2000-item library is ~2 MB,
// and growing a fresh buffer for each view was most of its cost.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 16 << 20

// render executes a page template into a buffer, then writes it whole, so
// a failed render never leaves half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	if p.V != nil && p.Flash == nil {
		p.Flash = h.takeFlash(w, r, p.V)
	}
	h.renderWith(w, r, status, name, func(b *bytes.Buffer) error { return executePage(b, name, p) })
}

// renderWith is render with the page written by fill.
func (h *Handler) renderWith(w http.ResponseWriter, r *http.Request, status int, name string, fill func(*bytes.Buffer) error) {
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			bufs.Put(buf)
		}
	}()
	if err := fill(buf); err != nil {
		h.Log.Error("page render failed", "page", name, "path", r.URL.Path, "error", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	v := viewerFrom(r.Context())
	h.render(w, r, status, "error", page{Title: title, Message: msg, V: v, Admin: v != nil && v.Owner && strings.HasPrefix(r.URL.Path, "/admin")})
}

func (h *Handler) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	h.Log.Warn("page failed", "path", r.URL.Path, "error", err)
	w.Header().Set("Retry-After", "5")
	h.errorPage(w, r, http.StatusServiceUnavailable, "Try again shortly", "The server cannot reach its database right now. Reload the page in a moment.")
}

// importRefused answers an import the decoder refused with its reason:
// 413 past a bound, else 400. (The API answers a type no import reads
// with 415; a page's upload is always a form, a type the page takes.)
func (h *Handler) importRefused(w http.ResponseWriter, r *http.Request, title string, err error) {
	status := http.StatusBadRequest
	if errors.Is(err, imports.ErrTooLarge) {
		status = http.StatusRequestEntityTooLarge
	}
	h.errorPage(w, r, status, title, imports.Reason(err))
}

func (h *Handler) loginPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h.render(w, r, status, "login", page{Title: "Log in", Message: msg, DiscordLogin: h.OAuth != nil})
}

// pathEscape escapes one path segment.
func pathEscape(s string) string { return url.PathEscape(s) }

// ago says how long before now t was, in the largest whole unit.
func ago(now time.Time, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	case d < 60*24*time.Hour:
		return plural(int(d/(24*time.Hour)), "day") + " ago"
	}
	return "on " + t.UTC().Format("2 Jan 2006")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// when formats a time for a table cell (UTC, to the minute).
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// whenSet is when for a time that may be unset ("—").
func whenSet(t *time.Time) string {
	if t == nil {
		return "—"
	}
	return when(*t)
}

// dur formats whole seconds as the console does (client.FormatDuration:
// "3h20m", "45s").
func dur(s int64) string { return client.FormatDuration(time.Duration(s) * time.Second) }
