package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/userscript"
)

// MaxBodyBytes is the largest request body accepted (413 above it).
const MaxBodyBytes = 1 << 20

// Authenticator resolves a bearer token to an auth.Identity. It returns an
// error for a missing, unknown or revoked token (answered 401), or one
// wrapping auth.ErrUnavailable when it cannot tell (answered 503).
// *auth.Service implements it; tests plug in fixed identities.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (auth.Identity, error)
}

var _ Authenticator = (*auth.Service)(nil)

// Lanes is what the admin API needs of the running Poll Lanes: waking a Lane
// so a Forced Poll or a pause takes effect at once, and the in-process facts
// the database does not hold. A nil Lanes means polling is not running here.
type Lanes interface {
	Wake(site string)
	Runtime(site string) LaneRuntime
}

// LaneRuntime is the in-process state of one Lane.
type LaneRuntime struct {
	Enabled          bool       // the poll switch is on
	NoBrowser        bool       // a browser Site with no BROWSER_WS_URL
	BrowserDownUntil *time.Time // the shared browser-lost gate, when set
}

// Deps are the server's collaborators.
type Deps struct {
	Store    *store.Store
	Sites    *sites.Registry // nil: no Sites (New puts an empty registry in)
	Auth     Authenticator
	Lanes    Lanes
	Log      *slog.Logger
	Now      func() time.Time
	BaseURL  string       // PUBLIC_BASE_URL
	OAuth    http.Handler // /auth/discord/* handler; nil when OAuth is off
	Version  string
	Userjs   []byte   // the userscript template; nil serves 404
	NoLimits bool     // disable per-token write rate limits (benchmarks)
	Metrics  *Metrics // the /metrics registry; nil: New makes one
}

// emptyRegistry stands in when the server was built without Sites, so every
// handler can use s.Sites and a server without Sites answers with none.
var emptyRegistry, _ = sites.NewRegistry(nil)

// Server is the HTTP handler of the whole contract.
type Server struct {
	Deps
	mux     *routeMux
	limiter *writeLimiter
	counts  adminCountCache // the admin API's periodically recounted totals
	userjs  []byte          // Deps.Userjs rendered for BaseURL once, at New
}

// New builds the Server and its routes.
func New(d Deps) *Server {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Sites == nil {
		d.Sites = emptyRegistry
	}
	if d.Metrics == nil {
		d.Metrics = NewMetrics()
	}
	s := &Server{Deps: d, mux: newRouteMux(), limiter: newWriteLimiter(d.Now)}
	if d.Userjs != nil {
		s.userjs = userscript.Render(d.Userjs, d.BaseURL)
	}
	s.mux.HandleFunc("GET /healthz", s.healthz)
	d.Metrics.build.WithLabelValues(d.Version).Set(1)
	d.Metrics.reg.MustRegister(newLaneCollector(s))
	s.mux.Handle("GET /metrics", d.Metrics.handler(s.Log.Warn))
	if d.OAuth != nil {
		s.mux.Handle("/auth/discord/", d.OAuth)
	}
	s.readerRoutes()
	s.adminRoutes()
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such path: see the API contract for the paths this server answers")
	})
	return s
}

// ServeHTTP applies the body limit and recovers from handler panics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.Log.Error("handler panic", "path", r.URL.Path, "panic", v)
			writeError(w, http.StatusInternalServerError, "the server hit an internal error; try again, and tell the Owner if it persists")
		}
	}()
	if r.ContentLength > MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	rec := &statusRecorder{ResponseWriter: w}
	start := time.Now() // wall time on purpose: latency is measured, not simulated
	s.mux.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK // nothing written: net/http answers 200
	}
	s.Metrics.observeRequest(r.Pattern, rec.status, time.Since(start))
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if s.Store == nil || s.Store.Ping(ctx) != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"ok": false, "error": "the database does not answer"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}
