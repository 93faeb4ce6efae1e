package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/imports"
	"mangabookmark/backend/phonesync"
	"mangabookmark/backend/phonesync/merge"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/tokenbudget"
	"mangabookmark/backend/trackersync"
	"mangabookmark/backend/userscript"
)

// MaxBodyBytes is the largest request body accepted (413 above it).
const MaxBodyBytes = 1 << 20

// Config is the server's collaborators and settings.
type Config struct {
	Store         *store.Store
	Sites         *sites.Registry // nil: no Sites (New puts an empty registry in)
	Auth          auth.Authenticator
	Admin         *admin.Service // the Owner's read model and acts; nil: New builds one over Store and Sites, with no Lanes
	Log           *slog.Logger
	Now           func() time.Time
	BaseURL       string // PUBLIC_BASE_URL: empty, or an absolute http(s) URL
	Version       string
	Userjs        []byte                // the userscript template; nil serves 404
	NoLimits      bool                  // disable per-token write rate limits (benchmarks)
	Metrics       *Metrics              // the /metrics registry, for this server alone; nil: New makes one
	ReaderNotices *readernotice.Service // Reader notices (settings, feed); nil: none here
	Imports       *imports.Service      // runs POST /api/imports; nil answers 503 there
	Trackers      *trackersync.Set      // the Readers' trackers (/api/me/trackers); nil answers 503 there
	PhoneSync     *phonesync.Service    // the phone sync (/api/me/sync, /api/sync/...); nil answers 503 there
	SyncV2        *merge.Engine         // the phone sync's protocol v2 merges (/api/sync/v2/...); nil answers 503 there
	// Budget is each token's in-flight bound and write budget, shared
	// with the pages (cmd gives both faces the same one); nil: New makes
	// one for this server alone.
	Budget *tokenbudget.Budget
}

// emptyRegistry stands in when the server was built without Sites, so every
// handler can use s.Sites and a server without Sites answers with none.
var emptyRegistry, _ = sites.NewRegistry(nil)

// Server is the HTTP handler of the whole contract.
type Server struct {
	Config
	mux    *routeMux
	userjs []byte // Config.Userjs rendered for BaseURL once, at New
}

// New builds the Server and its routes, or says what in cfg is wrong.
func New(cfg Config) (*Server, error) {
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("api: new: BaseURL %q is not an absolute http(s) URL", cfg.BaseURL)
		}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sites == nil {
		cfg.Sites = emptyRegistry
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	if cfg.Admin == nil && cfg.Store != nil {
		a, err := admin.New(admin.Config{Store: cfg.Store, Sites: cfg.Sites, Log: cfg.Log, Now: cfg.Now})
		if err != nil {
			return nil, fmt.Errorf("api: new: %w", err)
		}
		cfg.Admin = a
	}
	if cfg.Budget == nil {
		b, err := tokenbudget.New(tokenbudget.Config{Now: cfg.Now})
		if err != nil {
			return nil, fmt.Errorf("api: new: %w", err)
		}
		cfg.Budget = b
	}
	s := &Server{Config: cfg, mux: newRouteMux()}
	if err := cfg.Metrics.reg.Register(newLaneCollector(s)); err != nil {
		return nil, fmt.Errorf("api: new: Metrics already serves another server: %w", err)
	}
	cfg.Metrics.build.WithLabelValues(cfg.Version).Set(1)
	if cfg.Userjs != nil {
		s.userjs = userscript.Render(cfg.Userjs, cfg.BaseURL)
	}
	s.mux.HandleFunc("GET /healthz", s.healthz)
	// /metrics names every Site, Lane state and notice count: the Owner's
	// token only, so the public listener tells a stranger nothing
	// (docs/adr/0018-forged-reads-and-junk-series.md). Prometheus sends it
	// as a bearer credential.
	s.mux.Handle("GET /metrics", s.admin(cfg.Metrics.handler(s.Log.Warn).ServeHTTP))
	s.readerRoutes()
	s.noticeRoutes()
	s.pushRoutes()
	s.importRoutes()
	s.trackerRoutes()
	s.meSyncRoutes()
	s.syncRoutes()
	s.syncV2Routes()
	s.adminRoutes()
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such path: see the API contract for the paths this server answers")
	})
	return s, nil
}

// ServeHTTP applies the body limit and recovers from handler panics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			s.Log.Error("handler panic", "path", r.URL.Path, "panic", v)
			writeError(w, http.StatusInternalServerError, "the server hit an internal error; try again, and tell the Owner if it persists")
		}
	}()
	limit := bodyLimit(r)
	if r.ContentLength > limit {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d MiB", limit>>20))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
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
