package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
)

// viewer is who a page is for: the session's Reader.
type viewer struct {
	ReaderID  int64
	TokenID   int64
	Name      string
	DiscordID string
	Owner     bool
	CSRF      string // the csrf field every form of this session carries
	idHash    []byte
	flashKey  []byte // signs this session's flash cookie (flash.go)
}

type viewerKey struct{}

func viewerFrom(ctx context.Context) *viewer {
	v, _ := ctx.Value(viewerKey{}).(*viewer)
	return v
}

// csrfFor derives a session's CSRF value from its id: only a page of the
// session can know it (the cookie is HttpOnly), and it needs no storage.
func csrfFor(sessionID string) string {
	sum := sha256.Sum256([]byte("mangabookmark csrf\x00" + sessionID))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// newSecret is 32 random bytes in unpadded base64url.
func newSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("web: random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// StartSession starts a session for the token and sets its cookie. The
// Discord callback calls it too, so a login by Discord lands in a session.
func (h *Handler) StartSession(w http.ResponseWriter, r *http.Request, tokenID int64) error {
	id, err := newSecret()
	if err != nil {
		return err
	}
	now := h.Now()
	if err := h.Store.CreateSession(r.Context(), store.SessionHash(id), tokenID, now, now.Add(SessionTTL)); err != nil {
		return fmt.Errorf("web: start session: %w", err)
	}
	h.setCookie(w, id, int(SessionTTL/time.Second))
	if _, err := h.Store.PurgeSessions(r.Context(), now); err != nil {
		h.Log.Warn("expired sessions not purged", "error", err)
	}
	if err := h.Store.ReleaseExpiredHolds(r.Context(), now); err != nil {
		h.Log.Warn("expired undo holds not released", "error", err)
	}
	return nil
}

func (h *Handler) setCookie(w http.ResponseWriter, value string, maxAge int) {
	auth.SetSessionCookie(w, value, maxAge, h.secure())
}

// viewer resolves the request's session (auth.LookupSession, which slides
// it): nil without a live one.
func (h *Handler) viewer(w http.ResponseWriter, r *http.Request) (*viewer, error) {
	s, id, ok, err := auth.LookupSession(r.Context(), w, r, h.Store, h.Now(), h.secure(), h.Log)
	if err != nil || !ok {
		return nil, err
	}
	return &viewer{
		ReaderID: s.ReaderID, TokenID: s.TokenID, Name: s.ReaderName, DiscordID: s.DiscordID,
		Owner: h.OwnerDiscordID != "" && subtle.ConstantTimeCompare([]byte(s.DiscordID), []byte(h.OwnerDiscordID)) == 1,
		CSRF:  csrfFor(id), idHash: store.SessionHash(id), flashKey: flashKeyFor(id),
	}, nil
}

// session wraps a page that needs a session: 303 to / without one, 429
// past the token's in-flight bound.
func (h *Handler) session(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if viewerFrom(r.Context()) != nil {
			next(w, r)
			return
		}
		v, err := h.viewer(w, r)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		if v == nil {
			seeOther(w, r, "/")
			return
		}
		// One slot of the token's in-flight bound for the whole request,
		// shared with the API, taken before any of a body is read.
		leave, ok := h.enter(w, r, v.ReaderID)
		if !ok {
			return
		}
		defer leave()
		next(w, r.WithContext(context.WithValue(r.Context(), viewerKey{}, v)))
	}
}

// owner wraps an Owner page: 303 to / without a session, 403 for a Reader.
func (h *Handler) owner(next http.HandlerFunc) http.HandlerFunc {
	return h.session(func(w http.ResponseWriter, r *http.Request) {
		if !viewerFrom(r.Context()).Owner {
			h.errorPage(w, r, http.StatusForbidden, "Owner only", "These pages are for the Owner of this mangabookmark.")
			return
		}
		next(w, r)
	})
}

// post wraps a form action: it needs a session, a write from the
// session token's budget, a body within formBodyBytes and the session's
// csrf field; a missing or wrong one is 403 and nothing changes.
func (h *Handler) post(next http.HandlerFunc) http.HandlerFunc {
	return h.postUpTo(formBodyBytes, next)
}

// postUpTo is post for a form that may send up to limit bytes.
func (h *Handler) postUpTo(limit int64, next http.HandlerFunc) http.HandlerFunc {
	return h.spend(h.capForm(limit, h.checkCSRF(next)))
}

// home is the library with a session and the login page without one.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	v, err := h.viewer(w, r)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	if v == nil {
		h.loginPage(w, r, http.StatusOK, "")
		return
	}
	h.library(w, r.WithContext(context.WithValue(r.Context(), viewerKey{}, v)))
}

// login checks the form's token and starts a session: 303 to /, or 401
// with the login page for a wrong token.
func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	// No session yet, so no csrf field: refuse a form posted from another
	// origin instead (login CSRF would put the victim in someone's session).
	// A browser sends Origin or Sec-Fetch-Site with every form POST; a
	// request with neither is not our login page's form.
	o := r.Header.Get("Origin")
	sameSite := r.Header.Get("Sec-Fetch-Site") == "same-origin"
	if o != "" {
		u, err := url.Parse(o)
		sameSite = err == nil && (u.Host == r.Host || u.Host == h.publicHost())
	}
	if !sameSite {
		h.errorPage(w, r, http.StatusForbidden, "Form refused", "Log in from this site's own login page.")
		return
	}
	token := strings.TrimSpace(r.PostFormValue("token"))
	if token == "" || h.Auth == nil {
		h.loginPage(w, r, http.StatusUnauthorized, "Paste your API token to log in.")
		return
	}
	id, err := h.Auth.Authenticate(r.Context(), token)
	if errors.Is(err, auth.ErrUnavailable) {
		h.unavailable(w, r, err)
		return
	}
	if err != nil {
		// The token is checked first: a valid one logs in even from an
		// address past its failed-login limit (login_throttle.go).
		if !h.logins.fail(r) {
			w.Header().Set("Retry-After", "60")
			h.errorPage(w, r, http.StatusTooManyRequests, "Too many failed logins",
				"That token is unknown or revoked, and this address has tried too many wrong tokens. Check your token, or wait a minute before trying another.")
			return
		}
		h.Log.Info("web login refused", "reason", "unknown or revoked token")
		h.loginPage(w, r, http.StatusUnauthorized, "That token is unknown or revoked. Check it, or log in again to get a new one.")
		return
	}
	if err := h.StartSession(w, r, id.TokenID); err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.Log.Info("web login", "reader_id", id.ReaderID, "token_id", id.TokenID)
	seeOther(w, r, "/")
}

// loginOnce consumes a one-time login link (`make demo` prints one) and
// starts a session for its token: 303 to / (docs/api.md).
func (h *Handler) loginOnce(w http.ResponseWriter, r *http.Request) {
	tokenID, err := h.Store.ConsumeLoginLink(r.Context(), store.SessionHash(r.PathValue("code")), h.Now())
	if errors.Is(err, store.ErrNotFound) {
		h.loginPage(w, r, http.StatusUnauthorized, "That login link was used already or has expired.")
		return
	}
	if err == nil {
		err = h.StartSession(w, r, tokenID)
	}
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	seeOther(w, r, "/")
}

// publicHost is PUBLIC_BASE_URL's host (a proxy may rewrite Host).
func (h *Handler) publicHost() string {
	u, err := url.Parse(h.BaseURL)
	if err != nil || u.Host == "" {
		return "-"
	}
	return u.Host
}

// CreateLoginLink mints a one-time login link for the token, valid for
// ttl, and returns its path (/login/once/<code>).
func CreateLoginLink(ctx context.Context, st *store.Store, tokenID int64, expires time.Time) (string, error) {
	code, err := newSecret()
	if err != nil {
		return "", err
	}
	if err := st.CreateLoginLink(ctx, store.SessionHash(code), tokenID, expires); err != nil {
		return "", fmt.Errorf("web: login link: %w", err)
	}
	return "/login/once/" + code, nil
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if err := h.Store.DeleteSession(r.Context(), v.idHash); err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.setCookie(w, "", -1)
	seeOther(w, r, "/")
}
