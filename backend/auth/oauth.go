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

// OAuth paths, under the prefix api.Server routes to the handler.
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

// OAuth is the http.Handler of /auth/discord/login and /auth/discord/callback.
type OAuth struct {
	svc    *Service
	conf   OAuthConfig
	ep     discordEndpoints // test seam
	client *http.Client
	log    *slog.Logger

	// StartSession, when set, starts a web page session for the token a
	// login minted (web.Handler.StartSession), so the Reader lands in
	// their library; the token is still shown once for the userscript.
	StartSession func(w http.ResponseWriter, r *http.Request, tokenID int64) error
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

// ServeHTTP routes the two OAuth paths.
func (o *OAuth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET")
		o.page(w, http.StatusMethodNotAllowed, "Method not allowed", "Open this page with a plain link.", "")
		return
	}
	switch r.URL.Path {
	case LoginPath:
		o.login(w, r)
	case CallbackPath:
		o.callback(w, r)
	default:
		o.page(w, http.StatusNotFound, "Not found", "Start again at "+LoginPath+".", "")
	}
}

func (o *OAuth) secure() bool { return strings.HasPrefix(o.conf.BaseURL, "https://") }

func (o *OAuth) login(w http.ResponseWriter, r *http.Request) {
	b := make([]byte, 32)
	if _, err := io.ReadFull(o.svc.rand, b); err != nil {
		o.log.Error("oauth state", "error", err)
		o.page(w, http.StatusInternalServerError, "Login unavailable", "The server could not start a login; try again.", "")
		return
	}
	state := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: stateCookie, Value: state, Path: "/auth/discord/",
		MaxAge: int(stateTTL / time.Second), HttpOnly: true, Secure: o.secure(), SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, o.oauth2Config().AuthCodeURL(state), http.StatusFound)
}

func (o *OAuth) clearState(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: "/auth/discord/", MaxAge: -1,
		HttpOnly: true, Secure: o.secure(), SameSite: http.SameSiteLaxMode})
}

func (o *OAuth) callback(w http.ResponseWriter, r *http.Request) {
	o.clearState(w)
	q := r.URL.Query()
	c, err := r.Cookie(stateCookie)
	got := q.Get("state")
	if err != nil || c.Value == "" || got == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(got)) != 1 {
		o.log.Warn("oauth callback refused", "reason", "state missing or mismatched")
		o.page(w, http.StatusBadRequest, "Login expired", "The login could not be verified (it expired or was started elsewhere). Start again.", "")
		return
	}
	if e := q.Get("error"); e != "" {
		o.log.Info("oauth callback refused", "reason", "denied at Discord")
		o.page(w, http.StatusForbidden, "Login cancelled", "Discord did not grant access. Start again and choose Authorize.", "")
		return
	}
	code := q.Get("code")
	if code == "" {
		o.page(w, http.StatusBadRequest, "Login incomplete", "Discord sent no authorization code. Start again.", "")
		return
	}
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, o.client)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tok, err := o.oauth2Config().Exchange(ctx, code)
	if err != nil {
		o.log.Warn("oauth code exchange failed", "error", redactExchange(err))
		o.page(w, http.StatusBadGateway, "Discord did not answer", "The login could not be completed with Discord. Start again in a minute.", "")
		return
	}
	var user discordUser
	if err := discordGet(ctx, o.client, o.ep.APIBase, "/users/@me", tok, &user); err != nil || user.ID == "" {
		o.log.Warn("oauth user lookup failed", "error", errOrEmpty(err))
		o.page(w, http.StatusBadGateway, "Discord did not answer", "Your Discord account could not be read. Start again in a minute.", "")
		return
	}
	var guilds []discordGuild
	if err := discordGet(ctx, o.client, o.ep.APIBase, "/users/@me/guilds", tok, &guilds); err != nil {
		o.log.Warn("oauth guild lookup failed", "discord_id", user.ID, "error", err)
		o.page(w, http.StatusBadGateway, "Discord did not answer", "Your Discord servers could not be read. Start again in a minute.", "")
		return
	}
	if !memberOf(guilds, o.conf.GuildID) {
		o.log.Info("oauth login refused", "discord_id", user.ID, "reason", "not a guild member")
		o.page(w, http.StatusForbidden, "Not a member", "This mangabookmark is for the members of one Discord server, and your account is not in it. Ask the Owner for an invite.", "")
		return
	}
	now := o.svc.now()
	plain, t, err := o.svc.mint(r.Context(), user.ID, user.displayName(), "discord login "+now.UTC().Format("2006-01-02 15:04"), &now)
	if err != nil {
		o.log.Error("oauth token mint failed", "discord_id", user.ID, "error", err)
		o.page(w, http.StatusInternalServerError, "Login failed", "Your token could not be created. Try again; tell the Owner if it persists.", "")
		return
	}
	o.log.Info("oauth login", "discord_id", user.ID, "token_id", t.ID)
	session := false
	if o.StartSession != nil {
		if err := o.StartSession(w, r, t.ID); err != nil {
			o.log.Warn("oauth session start failed", "discord_id", user.ID, "error", err)
		} else {
			session = true
		}
	}
	o.tokenPage(w, user.displayName(), plain, session)
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
