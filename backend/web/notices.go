package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// noticesView is the notices settings page: the Reader's settings, a
// webhook secret shown once after it was made, and the last test's
// results.
type noticesView struct {
	S       readernotice.Settings
	Secret  string
	Results []readernotice.TestResult
	Error   string
	// Notices is false when the server runs no notice service: the page
	// shows the Trackers card alone.
	Notices bool
	// Trackers are the Trackers card's trackers (nil: the server syncs
	// none), and Flash what the last tracker form did.
	Trackers []trackerCard
	Flash    string
	// Sync is the Phone sync card (nil: the server runs no phone sync);
	// SyncKey a key just made, shown once.
	Sync    *syncCard
	SyncKey string
}

// noticeRoutes registers the notices settings page and its forms, and the
// library cards' notify control. The contract's name for the page is
// /settings; /notices, which the forms post to, serves the same page.
func (h *Handler) noticeRoutes() {
	h.handle("GET /settings", h.settings(h.noticesPage))
	h.handle("GET /notices", h.settings(h.noticesPage))
	h.handle("POST /notices", h.reader(h.post(h.saveNotices)))
	h.handle("POST /notices/feed/rotate", h.reader(h.post(h.rotateFeed)))
	h.handle("POST /notices/test", h.reader(h.post(h.testNotice)))
	h.handle("POST /library/{site}/{series_id}/notify", h.post(h.setNotify))
}

// reader answers 404 when the server runs no notice service, else runs fn
// for a session (viewer-less requests were already sent to /).
func (h *Handler) reader(fn http.HandlerFunc) http.HandlerFunc {
	return h.session(func(w http.ResponseWriter, r *http.Request) {
		if h.ReaderNotices == nil {
			h.errorPage(w, r, http.StatusNotFound, "Not found", "This server sends no notices.")
			return
		}
		fn(w, r)
	})
}

// settings is reader for the settings page itself, which also shows the
// Trackers card: 404 only when the server runs neither.
func (h *Handler) settings(fn http.HandlerFunc) http.HandlerFunc {
	return h.session(func(w http.ResponseWriter, r *http.Request) {
		if h.ReaderNotices == nil && h.Trackers == nil && h.SyncKeys == nil {
			h.errorPage(w, r, http.StatusNotFound, "Not found", "This server sends no notices.")
			return
		}
		fn(w, r)
	})
}

func (h *Handler) noticesPage(w http.ResponseWriter, r *http.Request) {
	h.showSettings(w, r, http.StatusOK, &noticesView{Flash: trackerFlash(r)}, nil)
}

func (h *Handler) showNotices(w http.ResponseWriter, r *http.Request, status int, nv *noticesView) {
	h.showSettings(w, r, status, nv, nil)
}

// showSettings renders the settings page: the notice settings and the
// Trackers card, with in (a refused tracker form's values and reason) on
// its tracker.
func (h *Handler) showSettings(w http.ResponseWriter, r *http.Request, status int, nv *noticesView, in *trackerInput) {
	v := viewerFrom(r.Context())
	if h.ReaderNotices != nil {
		st, err := h.ReaderNotices.Settings(r.Context(), v.ReaderID)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		nv.S, nv.Notices = st, true
	}
	if h.Trackers != nil {
		cards, err := h.trackerCards(r.Context(), v.ReaderID, in)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		nv.Trackers = cards
	}
	sc, err := h.syncCardFor(r.Context(), v.ReaderID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if sc != nil {
		sc.Key = nv.SyncKey
		nv.Sync = sc
	}
	h.render(w, r, status, "notices", page{Title: "Settings", V: v, Notify: nv})
}

func (h *Handler) saveNotices(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	var c readernotice.SettingsChange
	if raw := strings.TrimSpace(r.PostFormValue("digest_min")); raw != "" {
		m, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			h.showNotices(w, r, http.StatusBadRequest, &noticesView{Error: "The digest window must be a number of minutes, such as 15 or 0."})
			return
		}
		sec := int(m * 60)
		c.DigestS = &sec
	}
	discord := r.PostFormValue("discord") == "on"
	if h.ReaderNotices.DiscordAvailable() || !discord {
		c.Discord = &discord
	}
	ntfy, hook := r.PostFormValue("ntfy_url"), r.PostFormValue("webhook_url")
	c.NtfyURL, c.WebhookURL = &ntfy, &hook
	st, err := h.ReaderNotices.UpdateSettings(r.Context(), v.ReaderID, c)
	var fe *readernotice.FieldError
	if errors.As(err, &fe) {
		h.showNotices(w, r, http.StatusBadRequest, &noticesView{Error: fieldLabel(fe.Field) + ": " + fe.Msg + "."})
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if st.WebhookSecret != "" {
		h.showNotices(w, r, http.StatusOK, &noticesView{Secret: st.WebhookSecret})
		return
	}
	seeOther(w, r, "/notices")
}

func fieldLabel(field string) string {
	switch field {
	case "digest_s":
		return "Digest window"
	case "ntfy_url":
		return "ntfy topic URL"
	case "webhook_url":
		return "Webhook URL"
	case "discord":
		return "Discord"
	}
	return field
}

func (h *Handler) rotateFeed(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if _, err := h.ReaderNotices.RotateFeed(r.Context(), v.ReaderID); err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/notices")
}

func (h *Handler) testNotice(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	res, err := h.ReaderNotices.SendTest(r.Context(), v.ReaderID)
	var soon *readernotice.TestTooSoonError
	if errors.As(err, &soon) {
		w.Header().Set("Retry-After", strconv.Itoa(soon.Seconds()))
		h.showNotices(w, r, http.StatusTooManyRequests, &noticesView{Error: "Not sent: " + soon.Reason() + "."})
		return
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	nv := &noticesView{Results: res}
	if len(res) == 0 {
		nv.Error = "No outlet is on yet: set an ntfy topic, a webhook or Discord first (the feed needs no test)."
	}
	h.showNotices(w, r, http.StatusOK, nv)
}

// setNotify sets a bookmark's notify mode → 303 back (the Series page or the library).
func (h *Handler) setNotify(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	mode := r.PostFormValue("mode")
	pile, err1 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("pile")))
	days, err2 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("pile_days")))
	problem := ""
	switch {
	case mode != store.NotifyEach && mode != store.NotifyOff && mode != store.NotifyPile:
		problem = "Not a notify mode: choose each, off or pile."
	case err1 != nil || pile < 1 || pile > 1000:
		problem = "Not a pile size: a pile is a whole number of chapters from 1 to 1000."
	case err2 != nil || days < 1 || days > 60:
		problem = "Not a number of days: a pile waits a whole number of days from 1 to 60."
	}
	site, id := r.PathValue("site"), r.PathValue("series_id")
	if problem != "" {
		// The page it came from, with the reason (a Series the Reader does
		// not bookmark is its 404).
		h.showSeries(w, r, http.StatusBadRequest, site, id, "", problem+" Nothing was saved.")
		return
	}
	_, err := h.Store.SetBookmarkNotify(r.Context(), v.ReaderID, site, id, mode, pile, days)
	if h.bookmarkActFailed(w, r, err) {
		return
	}
	h.setFlash(w, r, notifySentence(mode, pile, days), "")
	seeOther(w, r, readerBack(r))
}

// notifySentence is a saved notice mode, for the flash.
func notifySentence(mode string, pile, days int) string {
	switch mode {
	case store.NotifyOff:
		return "Notices off for this Series."
	case store.NotifyPile:
		return fmt.Sprintf("Notices saved: in a pile of %d chapters, or after %d days.", pile, days)
	}
	return "Notices saved: each chapter."
}
