package web

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
)

// The pages take the same per-Reader budget as /api/* (tokenbudget, one
// Budget for both faces): a session's requests count against its Reader,
// with their API requests, MaxInFlight at once (session), and every form
// post spends one write (spend). A form's body is capped to what it
// needs (capForm) before any of it is read: issue 33 W1 held 60 "Add a
// Series" posts of 1 MiB each in one process.
const (
	// formBodyBytes is what an ordinary form may send: the csrf field and
	// a few short fields (two outlet URLs of 2048 characters, escaped, at
	// most).
	formBodyBytes = 16 << 10
	// addBodyBytes is what "Add a Series" may send: about a thousand
	// Series URLs, one a line.
	addBodyBytes = 128 << 10
)

// enter takes one of the Reader's in-flight slots for a page request;
// false when it answered 429 (before any of the body was read).
func (h *Handler) enter(w http.ResponseWriter, r *http.Request, readerID int64) (leave func(), ok bool) {
	leave, ok = h.Budget.Enter(readerID)
	if !ok {
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Connection", "close") // the unread body is not drained
		h.errorPage(w, r, http.StatusTooManyRequests, "Too many requests at once",
			"Your earlier requests are still being answered. Wait for them to finish, then try again.")
	}
	return leave, ok
}

// spend takes one write from the session Reader's write budget, shared
// with the API: past it the form is 429 and nothing changes.
func (h *Handler) spend(next http.HandlerFunc) http.HandlerFunc {
	return h.session(func(w http.ResponseWriter, r *http.Request) {
		if !h.Budget.Write(viewerFrom(r.Context()).ReaderID) {
			w.Header().Set("Retry-After", "5")
			w.Header().Set("Connection", "close")
			h.errorPage(w, r, http.StatusTooManyRequests, "Too many changes at once",
				"You sent more changes than the server takes in a short time. Wait a few seconds, then send this one again.")
			return
		}
		next(w, r)
	})
}

// capForm reads a urlencoded form of at most limit bytes; a larger one is
// 413 with the bound, nothing changed. A multipart form is left to the
// handler, under the same cap.
func (h *Handler) capForm(limit int64, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		var maxErr *http.MaxBytesError
		if err := r.ParseForm(); errors.As(err, &maxErr) {
			w.Header().Set("Connection", "close")
			h.errorPage(w, r, http.StatusRequestEntityTooLarge, "That form is too large",
				fmt.Sprintf("This form may send at most %d KiB; send less at once.", limit>>10))
			return
		} else if err != nil {
			h.errorPage(w, r, http.StatusBadRequest, "That form could not be read", "Go back, reload the page and try again.")
			return
		}
		next(w, r)
	}
}

// checkCSRF needs the session's csrf field: a missing or wrong one is 403
// and nothing changes.
func (h *Handler) checkCSRF(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := viewerFrom(r.Context())
		got := r.PostFormValue("csrf")
		if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(v.CSRF)) != 1 {
			h.Log.Warn("form refused", "reason", "csrf missing or wrong", "path", r.URL.Path, "reader_id", v.ReaderID)
			h.errorPage(w, r, http.StatusForbidden, "Form expired", "This form could not be verified. Go back, reload the page and try again.")
			return
		}
		next(w, r)
	}
}
