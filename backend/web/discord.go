package web

import (
	"errors"
	"net/http"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/userscript"
)

// Discord is the Discord login whose result the pages show: auth keeps the
// state, the code exchange, the guild check and the minting; the pages
// start the session and say what happened. *auth.OAuth implements it.
type Discord interface {
	Begin(w http.ResponseWriter, r *http.Request) error
	Complete(w http.ResponseWriter, r *http.Request) (auth.Login, error)
}

var _ Discord = (*auth.OAuth)(nil)

// welcomeView is the page after a Discord login: the token, shown once,
// with the steps to paste it into the userscript.
type welcomeView struct {
	Token      string
	Userscript string // the script's path
	Session    bool   // a web session was started: link the library
}

// discordLogin sends the browser to Discord's consent page.
func (h *Handler) discordLogin(w http.ResponseWriter, r *http.Request) {
	if err := h.OAuth.Begin(w, r); err != nil {
		h.discordRefused(w, r, err)
	}
}

// discordCallback finishes the login, starts a session on the minted
// token and shows the token once (the userscript needs it).
func (h *Handler) discordCallback(w http.ResponseWriter, r *http.Request) {
	login, err := h.OAuth.Complete(w, r)
	if err != nil {
		h.discordRefused(w, r, err)
		return
	}
	wv := &welcomeView{Token: login.Token, Userscript: userscript.Path}
	if err := h.StartSession(w, r, login.TokenID); err != nil {
		h.Log.Warn("session start after the Discord login failed", "token_id", login.TokenID, "error", err)
	} else {
		wv.Session = true
	}
	h.render(w, r, http.StatusOK, "welcome", page{Title: "Welcome, " + login.Name, Message: "You are logged in to mangabookmark.", Welcome: wv})
}

// discordRefused shows a refused or failed login with its reason and a
// link to start again.
func (h *Handler) discordRefused(w http.ResponseWriter, r *http.Request, err error) {
	var le *auth.LoginError
	if !errors.As(err, &le) {
		le = &auth.LoginError{Status: http.StatusInternalServerError, Title: "Login failed", Reason: "The login could not be completed. Try again; tell the Owner if it persists."}
		h.Log.Error("discord login failed", "error", err)
	}
	h.render(w, r, le.Status, "welcome", page{Title: le.Title, Message: le.Reason})
}
