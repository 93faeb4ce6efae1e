package web

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The Connect flow (the OAuth authorization-code grant): connect makes a
// state bound to the Reader's session (trackers.States: an HMAC under a
// key derived from TOKEN_KEY, ten minutes) and sends the browser to the
// tracker's authorize page; the tracker sends it back to the callback,
// PUBLIC_BASE_URL/trackers/{service}/callback, the redirect the Owner
// registered. The callback exchanges the code only for a state this
// session made, once.

// sessionBinding is what a state is bound to: the session's id hash (the
// cookie itself is never used), so a state made in one browser is refused
// in another, even for the same Reader.
func sessionBinding(v *viewer) string {
	return base64.RawURLEncoding.EncodeToString(v.idHash)
}

// connectTracker sends the browser to the tracker's authorize page.
func (h *Handler) connectTracker(w http.ResponseWriter, r *http.Request) {
	svc := trackerFrom(r.Context())
	if h.TrackerStates == nil || !h.Trackers.OAuthEnabled(svc) {
		h.errorPage(w, r, http.StatusNotFound, "Connect is not set up",
			"The Owner has not registered this server with "+trackerNames[svc]+". Paste a token on the settings page instead.")
		return
	}
	state, err := h.TrackerStates.Make(svc, sessionBinding(viewerFrom(r.Context())))
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	to, err := h.Trackers.AuthorizeURL(svc, state)
	if err != nil {
		h.Log.Error("tracker authorize url failed", "service", svc, "error", err)
		h.errorPage(w, r, http.StatusInternalServerError, "Connect failed", "The server could not start the Connect. Tell the Owner if it persists.")
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// trackerCallback finishes the Connect: the state first (a wrong, missing,
// expired, another session's or already used one is refused and nothing is
// exchanged), then the tracker's answer (an error, or no code), then the
// exchange.
func (h *Handler) trackerCallback(w http.ResponseWriter, r *http.Request) {
	svc := trackerFrom(r.Context())
	name := trackerNames[svc]
	if h.TrackerStates == nil || !h.Trackers.OAuthEnabled(svc) {
		h.errorPage(w, r, http.StatusNotFound, "Connect is not set up",
			"The Owner has not registered this server with "+name+". Paste a token on the settings page instead.")
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	if err := h.TrackerStates.Check(svc, sessionBinding(viewerFrom(r.Context())), state); err != nil || !h.usedStates.claim(state, h.Now()) {
		h.Log.Info("tracker connect refused", "service", svc, "reason", "bad, expired, used or another session's state")
		h.errorPage(w, r, http.StatusForbidden, "Connect refused",
			"This answer from "+name+" does not belong to a Connect started in this browser in the last ten minutes, or was used already, so nothing was connected. Start again with Connect on the settings page.")
		return
	}
	if e := q.Get("error"); e != "" {
		msg := name + " did not connect (it answered " + oauthErrorWord(e) + "), so nothing was connected. Start again with Connect on the settings page, or paste a token."
		if e == "access_denied" {
			msg = "You declined on " + name + ", so nothing was connected."
		}
		h.errorPage(w, r, http.StatusBadRequest, "Not connected", msg)
		return
	}
	code := q.Get("code")
	if code == "" || len(code) > 4096 {
		h.errorPage(w, r, http.StatusBadRequest, "Not connected",
			name+"'s answer carried no usable code, so nothing was connected. Start again with Connect on the settings page.")
		return
	}
	if err := h.Trackers.Exchange(r.Context(), viewerFrom(r.Context()).ReaderID, svc, code); err != nil {
		if reason, ok := refusedReason(err); ok {
			h.errorPage(w, r, http.StatusBadRequest, "Not connected", reason)
			return
		}
		h.Log.Warn("tracker connect failed", "service", svc, "error", err)
		w.Header().Set("Retry-After", "5")
		h.errorPage(w, r, http.StatusServiceUnavailable, "Not connected",
			"The server could not finish the Connect with "+name+" just now. Start again with Connect on the settings page in a moment.")
		return
	}
	seeOther(w, r, "/settings?tracker="+svc+"&done=connected#trackers")
}

// oauthErrorWord is an OAuth error code fit to show: RFC 6749's words are
// lower-case letters and underscores; anything else is not quoted.
func oauthErrorWord(e string) string {
	if len(e) > 40 || strings.Trim(e, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return "an error"
	}
	return `"` + e + `"`
}

// maxUsedStates bounds the states remembered as used. A state lives ten
// minutes and needs a session to make, so the bound is far above any
// honest use; past it, the oldest are forgotten early (the tracker's code
// is single-use too).
const maxUsedStates = 10_000

// usedStateHold is how long a used state is remembered: the longest a
// trackers.States may let one live.
const usedStateHold = time.Hour

// usedStates remembers the states a callback has taken until they expire,
// so a replayed callback exchanges nothing. Per process: another replica
// would take the same state once more, and the tracker refuses the code.
type usedStates struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]time.Time // state hash to when it stops mattering
}

// claim records state as used at now: false when it was already.
func (u *usedStates) claim(state string, now time.Time) bool {
	key := sha256.Sum256([]byte(state))
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.seen == nil {
		u.seen = map[[sha256.Size]byte]time.Time{}
	}
	if until, ok := u.seen[key]; ok && now.Before(until) {
		return false
	}
	if len(u.seen) >= maxUsedStates {
		for k, until := range u.seen {
			if !now.Before(until) || len(u.seen) >= maxUsedStates {
				delete(u.seen, k)
			}
		}
	}
	u.seen[key] = now.Add(usedStateHold)
	return true
}
