package anilist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/trackers"
)

// The Connect flow's paths on this server; the callback is the redirect
// URL the Owner registers at AniList (PUBLIC_BASE_URL + CallbackPath).
const (
	ConnectPath  = "/trackers/anilist/connect"
	CallbackPath = "/trackers/anilist/callback"
)

// The OAuth endpoints' paths on AniList's site (or the Origin).
const (
	authorizePath = "/api/v2/oauth/authorize"
	tokenPath     = "/api/v2/oauth/token"
)

// maxTokenAnswer bounds the token endpoint's answer.
const maxTokenAnswer = 64 << 10

// maxToken bounds the token it returns (an AniList JWT is about a
// kilobyte).
const maxToken = 16 << 10

// OAuth is AniList's authorization-code Connect flow: the authorize URL
// with a state bound to the Reader's session, and the code exchange, which
// a wrong state never reaches. It writes no page and stores nothing: the
// caller seals the token it returns. Safe for concurrent use.
//
// golang.org/x/oauth2 is not used: the flow is one URL and one POST, that
// library is backend/auth's alone (internal/archtest), and its
// RetrieveError carries the answer's body, which here may hold a token.
type OAuth struct {
	conf     OAuthConfig
	siteURL  string
	redirect string
}

// OAuthConfig configures the Connect flow.
type OAuthConfig struct {
	ClientID     string // ANILIST_CLIENT_ID
	ClientSecret string // ANILIST_CLIENT_SECRET; never logged nor quoted
	// BaseURL is PUBLIC_BASE_URL; the redirect is BaseURL + CallbackPath.
	BaseURL string
	// States makes and checks the state (required).
	States *trackers.States
	// Origin, when set, serves the OAuth paths instead of AniList's site
	// (TRACKER_ORIGINS; the stand-in).
	Origin   string
	HTTP     *http.Client      // nil: a 30 s timeout
	Recorder trackers.Recorder // nil: none
}

// NewOAuth builds the Connect flow, or an error naming the OAuthConfig
// field that cannot work. It never quotes the secret.
func NewOAuth(conf OAuthConfig) (*OAuth, error) {
	switch {
	case conf.ClientID == "" || strings.Trim(conf.ClientID, "0123456789") != "":
		return nil, errors.New("anilist: new oauth: OAuthConfig.ClientID (ANILIST_CLIENT_ID) must be AniList's client id (digits)")
	case conf.ClientSecret == "":
		return nil, errors.New("anilist: new oauth: OAuthConfig.ClientSecret (ANILIST_CLIENT_SECRET) is empty")
	case conf.States == nil:
		return nil, errors.New("anilist: new oauth: OAuthConfig.States is nil")
	}
	base, err := url.Parse(conf.BaseURL)
	if conf.BaseURL == "" || err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" || base.User != nil {
		return nil, errors.New("anilist: new oauth: OAuthConfig.BaseURL (PUBLIC_BASE_URL) must be an absolute http(s) URL, the root of the callback")
	}
	o := &OAuth{conf: conf, siteURL: DefaultSiteURL, redirect: strings.TrimRight(conf.BaseURL, "/") + CallbackPath}
	if conf.Origin != "" {
		if o.siteURL, err = cleanOrigin(conf.Origin); err != nil {
			return nil, fmt.Errorf("anilist: new oauth: OAuthConfig.Origin: %w", err)
		}
	}
	if o.conf.HTTP == nil {
		o.conf.HTTP = &http.Client{Timeout: 30 * time.Second}
	}
	if o.conf.Recorder == nil {
		o.conf.Recorder = trackers.NopRecorder{}
	}
	return o, nil
}

// RedirectURL is the callback the Owner registers at AniList.
func (o *OAuth) RedirectURL() string { return o.redirect }

// AuthorizeURL is where the Connect button sends the Reader of session:
// AniList's authorize page with the client id, the redirect, response_type
// code and a state only this session can bring back.
func (o *OAuth) AuthorizeURL(session string) (string, error) {
	state, err := o.conf.States.Make(Name, session)
	if err != nil {
		return "", fmt.Errorf("anilist: authorize url: %w", err)
	}
	v := url.Values{"client_id": {o.conf.ClientID}, "redirect_uri": {o.redirect}, "response_type": {"code"}, "state": {state}}
	return o.siteURL + authorizePath + "?" + v.Encode(), nil
}

// Complete finishes the Connect flow at the callback for the Reader of
// session: it refuses a state this session did not make
// (trackers.ErrBadState, and no request is sent), then trades code for
// the Reader's token (trackers.ErrCodeRefused when AniList refuses it).
// No error quotes the code's answer, the token or the secret.
func (o *OAuth) Complete(ctx context.Context, session, state, code string) (string, error) {
	if err := o.conf.States.Check(Name, session, state); err != nil {
		return "", fmt.Errorf("anilist: connect: %w", err)
	}
	if code == "" || len(code) > 4096 {
		return "", fmt.Errorf("anilist: connect: no usable code in the callback: %w", trackers.ErrCodeRefused)
	}
	token, err := o.exchange(ctx, code)
	o.conf.Recorder.Request(Name, trackers.KindToken, trackers.ResultOf(err))
	if err != nil {
		return "", fmt.Errorf("anilist: connect: %w", err)
	}
	return token, nil
}

// exchange posts the code grant as AniList's documentation shows it (a
// JSON body, Accept: application/json) and reads access_token.
func (o *OAuth) exchange(ctx context.Context, code string) (string, error) {
	body, err := json.Marshal(map[string]string{
		"grant_type": "authorization_code", "client_id": o.conf.ClientID, "client_secret": o.conf.ClientSecret,
		"redirect_uri": o.redirect, "code": code,
	})
	if err != nil {
		return "", fmt.Errorf("exchange code: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.siteURL+tokenPath, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("exchange code: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := o.conf.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("exchange code: %w", ctx.Err())
		}
		return "", fmt.Errorf("exchange code: %w: %w", trackers.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer+1))
	switch {
	case resp.StatusCode >= 500:
		return "", fmt.Errorf("exchange code: HTTP %d: %w", resp.StatusCode, trackers.ErrUnavailable)
	case resp.StatusCode != http.StatusOK:
		// The body may name the code or the client: only the status is kept.
		return "", fmt.Errorf("exchange code: HTTP %d: %w", resp.StatusCode, trackers.ErrCodeRefused)
	case len(raw) > maxTokenAnswer:
		return "", fmt.Errorf("exchange code: answer over %d bytes: %w", maxTokenAnswer, trackers.ErrAnswerTooLarge)
	}
	var v struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(raw, &v) != nil || v.AccessToken == "" || len(v.AccessToken) > maxToken {
		return "", fmt.Errorf("exchange code: no usable access_token in the answer: %w", trackers.ErrBadAnswer)
	}
	return v.AccessToken, nil
}
