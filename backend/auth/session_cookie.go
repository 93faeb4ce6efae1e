package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"mangabookmark/backend/store"
)

// The web session cookie has one owner, this file: its name, how it is
// read (and how long a plausible value is), how it is set, and how a
// request's session is looked up and slid. The web pages and /covers/
// (api) both call it; the JSON API never reads the cookie
// (docs/adr/0009-web-pages-and-sessions.md).

// SessionCookie is the session cookie's name over plain http (a local
// install); SessionCookieHost is its name under https, where the __Host-
// prefix makes the browser refuse it unless Secure, host-only and Path=/,
// so a sibling subdomain cannot plant or shadow it.
const (
	SessionCookie     = "mb_session"
	SessionCookieHost = "__Host-" + SessionCookie
)

// MaxSessionIDLen bounds a session cookie's value: ids are 43 characters,
// and anything much longer is not looked up at all.
const MaxSessionIDLen = 100

// SessionTTL is how long a session lives after its last use (sliding);
// store.SessionLifetime ends it regardless.
const SessionTTL = 30 * 24 * time.Hour

// SessionRenewEvery throttles the sliding expiry: a session's end is moved
// at most once per SessionRenewEvery, not written on every request.
const SessionRenewEvery = time.Hour

// SessionCookieName is the cookie's name for a server whose public base
// URL is https (secure) or not.
func SessionCookieName(secure bool) string {
	if secure {
		return SessionCookieHost
	}
	return SessionCookie
}

// SessionID returns the request's session id, "" when it carries none or
// one too long to be ours.
func SessionID(r *http.Request, secure bool) string {
	c, err := r.Cookie(SessionCookieName(secure))
	if err != nil || c.Value == "" || len(c.Value) > MaxSessionIDLen {
		return ""
	}
	return c.Value
}

// SetSessionCookie sets the session cookie to id for maxAge seconds; a
// negative maxAge clears it.
func SetSessionCookie(w http.ResponseWriter, id string, maxAge int, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookieName(secure), Value: id, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	})
}

// LookupSession resolves the request's session at now: ok false without a
// live one (and a dead cookie is cleared); a live session's end slides
// forward by SessionTTL, at most once per SessionRenewEvery. An error is
// the store's (the caller answers "try again").
func LookupSession(ctx context.Context, w http.ResponseWriter, r *http.Request, st *store.Store, now time.Time,
	secure bool, log *slog.Logger) (sess store.Session, id string, ok bool, err error) {
	id = SessionID(r, secure)
	if id == "" || st == nil {
		return store.Session{}, "", false, nil
	}
	hash := store.SessionHash(id)
	sess, err = st.SessionByHash(ctx, hash, now)
	if errors.Is(err, store.ErrNotFound) {
		SetSessionCookie(w, "", -1, secure)
		return store.Session{}, "", false, nil
	}
	if err != nil {
		return store.Session{}, "", false, err
	}
	if sess.ExpiresAt.Before(now.Add(SessionTTL - SessionRenewEvery)) {
		if err := st.ExtendSession(ctx, hash, now.Add(SessionTTL)); err != nil {
			if log != nil {
				log.Warn("session renewal failed", "reader_id", sess.ReaderID, "error", err)
			}
		} else {
			SetSessionCookie(w, id, int(SessionTTL/time.Second), secure)
		}
	}
	return sess, id, true, nil
}
