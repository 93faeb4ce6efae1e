package web

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/imports"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/tokenbudget"
	"mangabookmark/backend/trackers"
	"mangabookmark/client"
)

// SessionTTL is how long a session lives after its last use (sliding);
// the session cookie and its lookup are auth's (auth/session_cookie.go).
const SessionTTL = auth.SessionTTL

// Admin is what the Owner's pages need of the Owner's read model: the
// Lanes as GET /api/admin/lanes shows them, their passes, the failing
// worklist, the open notices, the Works' counts and a Work's shared
// members, and the acts with the admin API's rules.
// The Owner's pages read nothing else (no store call of their own). *admin.Service implements it; cmd gives the same Service to
// both HTTP faces.
type Admin interface {
	LaneViews(ctx context.Context) ([]client.Lane, error)
	Force(ctx context.Context, site, seriesID string) (time.Time, error)
	Pause(ctx context.Context, site string, req client.PauseRequest) error
	Resume(ctx context.Context, site string) error
	Passes(ctx context.Context, site string, limit int) ([]store.Pass, error)
	Failing(ctx context.Context, f store.AdminFailingFilter) ([]store.AdminFailing, int, error)
	Notices(ctx context.Context) ([]store.Notice, error)
	WorkCounts(ctx context.Context) (client.AdminWorks, error)
	Work(ctx context.Context, workID int64) (client.AdminWork, error)
	SetSharedOffset(ctx context.Context, workID int64, site, seriesID, offset string) error
	UnlinkShared(ctx context.Context, workID int64, site, seriesID string) error
}

var _ Admin = (*admin.Service)(nil)

// Deps are the pages' collaborators.
type Deps struct {
	Store          *store.Store
	Sites          *sites.Registry
	Admin          Admin
	Auth           auth.Authenticator // checks the token of the login form
	OwnerDiscordID string             // OWNER_DISCORD_ID: who sees /admin
	BaseURL        string             // PUBLIC_BASE_URL: https makes the cookie Secure
	OAuth          Discord            // the Discord login (*auth.OAuth); nil: off, no button and 404 on its paths
	Log            *slog.Logger
	Now            func() time.Time
	ReaderNotices  *readernotice.Service // Reader notices: the settings page and Web Push subscriptions; nil hides them
	Imports        *imports.Service      // runs the import pages' imports; nil turns them off
	// Budget is each token's in-flight bound and write budget, shared
	// with the API (cmd gives both faces the same one); nil: New makes
	// one for the pages alone.
	Budget *tokenbudget.Budget
	// Trackers is the tracker sync behind the settings page's Trackers
	// card and the /trackers/ routes; nil hides the card and answers 404
	// there.
	Trackers Trackers
	// TrackerStates makes and checks the Connect flow's OAuth state
	// (bound to the session); nil: Trackers' own States() when it has
	// one, else the Connect button hides.
	TrackerStates *trackers.States
	// SyncKeys makes and revokes sync keys for the settings page's Phone
	// sync card; nil (the server runs no phone sync) hides the card.
	SyncKeys SyncKeys
}

// Handler serves every page; cmd mounts it on the API server's paths for
// the pages (api.Server.MountWeb), so web never imports api.
type Handler struct {
	Deps
	mux      *http.ServeMux
	patterns []string
	logins   *loginThrottle // failed logins per client address (login_throttle.go)
	// usedStates are the Connect callbacks' states already taken
	// (trackers_oauth.go).
	usedStates usedStates
}

// New builds the pages' handler.
func New(d Deps) *Handler {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Sites == nil {
		d.Sites, _ = sites.NewRegistry(nil)
	}
	if d.Budget == nil {
		d.Budget, _ = tokenbudget.New(tokenbudget.Config{Now: d.Now})
	}
	d.Trackers, d.TrackerStates = trackerDeps(d.Trackers, d.TrackerStates)
	h := &Handler{Deps: d, mux: http.NewServeMux(), logins: newLoginThrottle(d.Now)}
	h.handle("GET /{$}", h.home)
	h.handle("POST /login", h.login)
	h.handle("GET /login", func(w http.ResponseWriter, r *http.Request) { seeOther(w, r, "/") })
	h.handle("GET /login/once/{code}", h.loginOnce)
	h.handle("POST /logout", h.post(h.logout))
	h.handle("GET /series/{site}/{series_id}", h.session(h.seriesPage))
	h.handle("POST /library/{site}/{series_id}/read", h.post(h.markRead))
	h.handle("POST /library/{site}/{series_id}/remove", h.post(h.remove))
	h.handle("POST /library/{site}/{series_id}/progress", h.post(h.setProgress))
	h.handle("POST /library/undo", h.post(h.undo))
	h.handle("POST /library/bulk", h.post(h.bulk))
	h.noticeRoutes()
	h.stateRoutes()
	h.trackerRoutes()
	h.phoneSyncRoutes()
	h.workOfferRoutes()
	h.worksRoutes()
	h.updatesRoutes()
	h.handle("GET /admin", h.owner(h.adminPage))
	h.handle("GET /admin/lanes/{site}", h.owner(h.lanePage))
	h.handle("GET /admin/failing", h.owner(h.failingPage))
	h.handle("GET /admin/series/{site}/{series_id}/force", h.owner(h.forceAsk))
	h.handle("POST /admin/series/{site}/{series_id}/force", h.owner(h.post(h.force)))
	h.handle("POST /admin/lanes/{site}/pause", h.owner(h.post(h.pause)))
	h.handle("POST /admin/lanes/{site}/resume", h.owner(h.post(h.resume)))
	h.handle("GET /admin/works", h.owner(h.adminWorkOpen))
	h.handle("GET /admin/works/{id}", h.owner(h.adminWorkPage))
	h.handle("POST /admin/works/{id}/members/{site}/{series_id}/offset", h.owner(h.post(h.adminSharedOffset)))
	h.handle("POST /admin/works/{id}/members/{site}/{series_id}/unlink", h.owner(h.post(h.adminSharedUnlink)))
	h.importRoutes()
	h.handle("GET /web/{file}", serveStatic)
	h.pushRoutes()
	if d.OAuth != nil {
		h.handle("GET "+auth.LoginPath, h.discordLogin)
		h.handle("GET "+auth.CallbackPath, h.discordCallback)
	}
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.errorPage(w, r, http.StatusNotFound, "Not found", "There is no page at this address.")
	})
	return h
}

// handle registers one page's route and records its pattern.
func (h *Handler) handle(pattern string, fn http.HandlerFunc) {
	h.patterns = append(h.patterns, pattern)
	h.mux.HandleFunc(pattern, fn)
}

// Patterns lists the routes the pages serve (not the catch-all 404), for
// the check that holds them to docs/api.md.
func (h *Handler) Patterns() []string { return append([]string(nil), h.patterns...) }

// Pattern is the route that serves r: "" when none does, "/" for the
// catch-all 404.
func (h *Handler) Pattern(r *http.Request) string {
	_, p := h.mux.Handler(r)
	return p
}

// ServeHTTP sets the headers every page shares and routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; form-action 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.mux.ServeHTTP(w, r)
}

func (h *Handler) secure() bool { return strings.HasPrefix(h.BaseURL, "https://") }

// seeOther answers 303 to a local path.
func seeOther(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, path, http.StatusSeeOther)
}
