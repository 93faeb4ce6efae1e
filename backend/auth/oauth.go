package auth

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// OAuth paths; backend/web serves them (Begin at LoginPath, Complete at
// CallbackPath) with its own pages.
const (
	LoginPath    = "/auth/discord/login"
	CallbackPath = "/auth/discord/callback"
)

const (
	stateCookie = "mb_oauth_state"
	stateTTL    = 10 * time.Minute
)

// OAuthConfig configures the Discord login.
type OAuthConfig struct {
	ClientID     string // DISCORD_CLIENT_ID
	ClientSecret string // DISCORD_CLIENT_SECRET; never logged
	GuildID      string // DISCORD_GUILD_ID: membership required
	BaseURL      string // PUBLIC_BASE_URL; the callback is BaseURL + CallbackPath
	Log          *slog.Logger
}

// OAuth is the Discord login: the state cookie, the code exchange, the
// guild check and the minting of the Reader's token. It writes no page:
// backend/web shows the result (as a model web app keeps its OAuth2
// provider apart from its UI's callback handler).
type OAuth struct {
	svc    *Service
	conf   OAuthConfig
	ep     discordEndpoints // test seam
	client *http.Client
	log    *slog.Logger
}

// Login is a finished Discord login: the Reader's display name and the API
// token minted for them (its plaintext, to show once, and its row id, for
// the web session that rests on it).
type Login struct {
	Name    string
	Token   string
	TokenID int64
}

// LoginError is a login that was refused or could not finish. Status is
// the HTTP status the page answers with; Title and Reason are what the
// person reads (Reason is one sentence saying what to do), never a Go
// error chain.
type LoginError struct {
	Status        int
	Title, Reason string
}

func (e *LoginError) Error() string { return "auth: discord login: " + e.Title + ": " + e.Reason }

func refuse(status int, title, reason string) *LoginError {
	return &LoginError{Status: status, Title: title, Reason: reason}
}

// NewOAuth builds the Discord login over the token service, or an error
// naming the OAuthConfig field that cannot work: a missing client id,
// secret or guild id, a guild id that is not digits, a BaseURL that is not
// an absolute http(s) URL. The error never quotes the secret.
func NewOAuth(svc *Service, conf OAuthConfig) (*OAuth, error) {
	if svc == nil {
		return nil, errors.New("auth: new oauth: no token service")
	}
	if err := conf.check(); err != nil {
		return nil, err
	}
	log := conf.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	conf.BaseURL = strings.TrimRight(conf.BaseURL, "/")
	return &OAuth{svc: svc, conf: conf, ep: discordProduction,
		client: &http.Client{Timeout: 20 * time.Second}, log: log}, nil
}

// check refuses an OAuthConfig the login cannot work with.
func (c OAuthConfig) check() error {
	switch {
	case c.ClientID == "":
		return errors.New("auth: new oauth: OAuthConfig.ClientID (DISCORD_CLIENT_ID) is empty")
	case c.ClientSecret == "":
		return errors.New("auth: new oauth: OAuthConfig.ClientSecret (DISCORD_CLIENT_SECRET) is empty")
	case c.GuildID == "":
		return errors.New("auth: new oauth: OAuthConfig.GuildID (DISCORD_GUILD_ID) is empty")
	case strings.Trim(c.GuildID, "0123456789") != "":
		return errors.New("auth: new oauth: OAuthConfig.GuildID (DISCORD_GUILD_ID) must be a Discord guild id (digits only)")
	}
	u, err := url.Parse(c.BaseURL)
	if c.BaseURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return errors.New("auth: new oauth: OAuthConfig.BaseURL (PUBLIC_BASE_URL) must be an absolute http(s) URL such as https://manga.example.org, the root of the callback")
	}
	return nil
}

func (o *OAuth) oauth2Config() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     o.conf.ClientID,
		ClientSecret: o.conf.ClientSecret,
		Endpoint: oauth2.Endpoint{AuthURL: o.ep.AuthURL, TokenURL: o.ep.TokenURL,
			AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: o.conf.BaseURL + CallbackPath,
		Scopes:      []string{"identify", "guilds"},
	}
}

func (o *OAuth) secure() bool { return strings.HasPrefix(o.conf.BaseURL, "https://") }

// Begin starts a login: it sets the state cookie and redirects (302) to
// Discord's consent page. On an error it writes nothing and returns a
// *LoginError.
func (o *OAuth) Begin(w http.ResponseWriter, r *http.Request) error {
	b := make([]byte, 32)
	if _, err := io.ReadFull(o.svc.rand, b); err != nil {
		o.log.Error("oauth state", "error", err)
		return refuse(http.StatusInternalServerError, "Login unavailable", "The server could not start a login; try again.")
	}
	state := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: stateCookie, Value: state, Path: "/auth/discord/",
		MaxAge: int(stateTTL / time.Second), HttpOnly: true, Secure: o.secure(), SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, o.oauth2Config().AuthCodeURL(state), http.StatusFound)
	return nil
}

func (o *OAuth) clearState(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: "/auth/discord/", MaxAge: -1,
		HttpOnly: true, Secure: o.secure(), SameSite: http.SameSiteLaxMode})
}

// Complete finishes a login at the callback: it clears the state cookie,
// checks the state, exchanges the code, requires membership of the guild
// and mints the Reader's token. A refusal or failure is a *LoginError,
// and then no token exists.
func (o *OAuth) Complete(w http.ResponseWriter, r *http.Request) (Login, error) {
	o.clearState(w)
	q := r.URL.Query()
	c, err := r.Cookie(stateCookie)
	got := q.Get("state")
	if err != nil || c.Value == "" || got == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(got)) != 1 {
		o.log.Warn("oauth callback refused", "reason", "state missing or mismatched")
		return Login{}, refuse(http.StatusBadRequest, "Login expired", "The login could not be verified (it expired or was started elsewhere). Start again.")
	}
	if e := q.Get("error"); e != "" {
		o.log.Info("oauth callback refused", "reason", "denied at Discord")
		return Login{}, refuse(http.StatusForbidden, "Login cancelled", "Discord did not grant access. Start again and choose Authorize.")
	}
	code := q.Get("code")
	if code == "" {
		return Login{}, refuse(http.StatusBadRequest, "Login incomplete", "Discord sent no authorization code. Start again.")
	}
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, o.client)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tok, err := o.oauth2Config().Exchange(ctx, code)
	if err != nil {
		o.log.Warn("oauth code exchange failed", "error", redactExchange(err))
		return Login{}, refuse(http.StatusBadGateway, "Discord did not answer", "The login could not be completed with Discord. Start again in a minute.")
	}
	var user discordUser
	if err := discordGet(ctx, o.client, o.ep.APIBase, "/users/@me", tok, &user); err != nil || user.ID == "" {
		o.log.Warn("oauth user lookup failed", "error", errOrEmpty(err))
		return Login{}, refuse(http.StatusBadGateway, "Discord did not answer", "Your Discord account could not be read. Start again in a minute.")
	}
	var guilds []discordGuild
	if err := discordGet(ctx, o.client, o.ep.APIBase, "/users/@me/guilds", tok, &guilds); err != nil {
		o.log.Warn("oauth guild lookup failed", "discord_id", user.ID, "error", err)
		return Login{}, refuse(http.StatusBadGateway, "Discord did not answer", "Your Discord servers could not be read. Start again in a minute.")
	}
	if !memberOf(guilds, o.conf.GuildID) {
		o.log.Info("oauth login refused", "discord_id", user.ID, "reason", "not a guild member")
		return Login{}, refuse(http.StatusForbidden, "Not a member", "This mangabookmark is for the members of one Discord server, and your account is not in it. Ask the Owner for an invite.")
	}
	now := o.svc.now()
	plain, t, err := o.svc.mint(r.Context(), user.ID, user.displayName(), "discord login "+now.UTC().Format("2006-01-02 15:04"), &now)
	if err != nil {
		o.log.Error("oauth token mint failed", "discord_id", user.ID, "error", err)
		return Login{}, refuse(http.StatusInternalServerError, "Login failed", "Your token could not be created. Try again; tell the Owner if it persists.")
	}
	o.log.Info("oauth login", "discord_id", user.ID, "token_id", t.ID)
	return Login{Name: user.displayName(), Token: plain, TokenID: t.ID}, nil
}

func memberOf(guilds []discordGuild, id string) bool {
	if id == "" {
		return false
	}
	for _, g := range guilds {
		if g.ID == id {
			return true
		}
	}
	return false
}

// redactExchange keeps only the kind of a failed exchange: oauth2's
// RetrieveError carries the response body, which must not reach a log.
func redactExchange(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.Response != nil {
			return fmt.Sprintf("token endpoint answered HTTP %d (%s)", re.Response.StatusCode, re.ErrorCode)
		}
		return "token endpoint refused (" + re.ErrorCode + ")"
	}
	return "token endpoint unreachable"
}

func errOrEmpty(err error) any {
	if err == nil {
		return "no user id in the answer"
	}
	return err
}
