package anilisttest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"mangabookmark/backend/trackers"
)

// authorize approves at once as Config.ApproveAs and redirects back with
// a code and the state, as AniList does after the Reader clicks Approve.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("response_type") != "code" || q.Get("client_id") != s.conf.ClientID ||
		q.Get("redirect_uri") != s.conf.RedirectURL || s.conf.ApproveAs == "" {
		http.Error(w, "invalid authorization request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.nextID++
	token := fmt.Sprintf("standin-token-%d", s.nextID)
	code := fmt.Sprintf("standin-code-%d", s.nextID)
	s.tokens[token] = strings.ToLower(s.conf.ApproveAs)
	s.codes[code] = token
	s.mu.Unlock()
	back, _ := url.Parse(s.conf.RedirectURL)
	v := back.Query()
	v.Set("code", code)
	if st := q.Get("state"); st != "" {
		v.Set("state", st)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token trades an authorization code for its token once. It reads the
// JSON body AniList's documentation shows and the form body its PHP
// example sends.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.counts[trackers.KindToken]++
	s.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	p := map[string]string{}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/json" {
		_ = json.Unmarshal(body, &p)
	} else if v, err := url.ParseQuery(string(body)); err == nil {
		for k := range v {
			p[k] = v.Get(k)
		}
	}
	fail := func(status int, code, message string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": message, "message": message})
	}
	switch {
	case p["grant_type"] != "authorization_code":
		fail(http.StatusBadRequest, "unsupported_grant_type", "The authorization grant type is not supported by the authorization server.")
		return
	case p["client_id"] != s.conf.ClientID || p["client_secret"] != s.conf.ClientSecret:
		fail(http.StatusUnauthorized, "invalid_client", "Client authentication failed")
		return
	}
	s.mu.Lock()
	token, ok := s.codes[p["code"]]
	delete(s.codes, p["code"])
	s.mu.Unlock()
	if !ok || p["redirect_uri"] != s.conf.RedirectURL {
		fail(http.StatusBadRequest, "invalid_grant", "The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"token_type": "Bearer", "expires_in": 31536000, "access_token": token})
}
