package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/browser"
	"mangabookmark/backend/config"
	"mangabookmark/backend/crosswalk"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/tokenbudget"
	"mangabookmark/backend/userscript"
	"mangabookmark/backend/web"
)

// ServeCmd migrates the database, then serves the API and runs the Lanes.
type ServeCmd struct {
	ShutdownTimeout time.Duration `help:"How long in-flight requests may take to finish on SIGINT/SIGTERM." default:"15s"`
}

// Run serves until the context ends (SIGINT or SIGTERM).
func (c ServeCmd) Run(ctx context.Context, env *Env) error {
	cfg, err := env.Config()
	if err != nil {
		return err
	}
	return runServer(ctx, env, cfg, c.ShutdownTimeout, nil)
}

// runServer opens and migrates the database, wires the backend, serves
// until ctx ends and shuts down in order: HTTP first (in-flight requests
// finish), then the Lanes. ready, when set, runs once the store is open and
// before the Lanes start (the demo seeds there).
func runServer(ctx context.Context, env *Env, cfg config.Config, shutdown time.Duration, ready func(context.Context, *store.Store, *sites.Registry) error) error {
	log := env.Log
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}

	app, err := wire(cfg, st, env)
	if err != nil {
		return err
	}
	if ready != nil {
		if err := ready(ctx, st, app.sites); err != nil {
			return err
		}
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("serve: cannot listen on LISTEN_ADDR %s: %w", cfg.ListenAddr, err)
	}
	srv := &http.Server{
		Handler:           app.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "public_base_url", cfg.PublicBaseURL, "version", version)
	app.start(ctx)

	select {
	case err := <-errc:
		app.stop()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdown)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", "error", err)
	}
	app.stop()
	log.Info("stopped")
	return nil
}

// app is the wired backend: the HTTP handler and the background work.
type app struct {
	sites   *sites.Registry
	handler http.Handler
	start   func(ctx context.Context)
	stop    func()
}

// wire builds every collaborator from the configuration.
func wire(cfg config.Config, st *store.Store, env *Env) (*app, error) {
	log := env.Log
	reg, err := newRegistry(cfg)
	if err != nil {
		return nil, err
	}
	authSvc, oauth, err := auth.FromConfig(st, cfg, log.With("component", "auth"))
	if err != nil {
		return nil, err
	}
	if len(cfg.TokenKey) == 0 {
		log.Warn("TOKEN_KEY is unset: no token can be checked, so every API call but /healthz answers 401")
	}
	if !cfg.OAuthEnabled() {
		log.Info("Discord login is off (DISCORD_CLIENT_ID unset); mint tokens with `mangabookmark token create`")
	}

	var browserRoute sites.Fetcher
	bro, err := newBrowserRoute(cfg, log)
	if err != nil {
		return nil, err
	}
	if bro != nil {
		browserRoute = bro
	} else {
		log.Info("BROWSER_WS_URL is unset: browser Sites are skipped; plain Sites poll and stored covers are served")
	}

	send := ownernotice.FromWebhook(cfg.DiscordWebhookURL, nil, log.With("component", "notify"))
	ownerNotices, err := lanes.NewNotices(lanes.NoticesConfig{Store: st, Sites: reg.All(), Send: send,
		BaseURL: cfg.PublicBaseURL, Log: log.With("component", "owner-notices")})
	if err != nil {
		return nil, err
	}
	metrics := api.NewMetrics()
	plain, err := newPlainRoute()
	if err != nil {
		return nil, err
	}
	mgr, err := lanes.New(lanes.Config{
		Store:        st,
		Sites:        reg,
		Plain:        plain,
		Browser:      browserRoute,
		Version:      version,
		Log:          log.With("component", "lanes"),
		Enabled:      cfg.PollEnabled,
		OwnerNotices: ownerNotices,
		// The Lane read histogram of /metrics.
		ObserveRead: metrics.ObserveLaneRead,
	})
	if err != nil {
		return nil, err
	}

	feed, err := newReleaseFeed(cfg, st, reg, log)
	if err != nil {
		return nil, err
	}

	// The Owner's read model, one for both HTTP faces.
	adm, err := admin.New(admin.Config{Store: st, Sites: reg, Lanes: mgr, ReleaseFeed: feed != nil, Log: log.With("component", "admin")})
	if err != nil {
		return nil, err
	}
	readerNotices, err := newReaderNotices(cfg, st, log, metrics.NoticeRecorder())
	if err != nil {
		return nil, err
	}
	imp, err := newImports(st, reg, plain, log.With("component", "imports"))
	if err != nil {
		return nil, err
	}
	trackerSvc, err := newTrackers(cfg, st, metrics.TrackerRecorder(), log)
	if err != nil {
		return nil, err
	}
	// The crosswalk's Worker (nil when CROSSWALK=off).
	xwalk, err := crosswalk.FromConfig(cfg, st, version, log.With("component", "crosswalk"))
	if err != nil {
		return nil, err
	}
	phoneSync, err := newPhoneSync(cfg, st, reg, log)
	if err != nil {
		return nil, err
	}
	syncV2, err := newSyncV2(cfg, st, phoneSync)
	if err != nil {
		return nil, err
	}
	// One token's budget (in flight, writes) for both HTTP faces.
	budget, err := tokenbudget.New(tokenbudget.Config{})
	if err != nil {
		return nil, err
	}
	srv, err := api.New(api.Config{
		Budget:        budget,
		ReaderNotices: readerNotices,
		Imports:       imp,
		Trackers:      trackerSvc,
		PhoneSync:     phoneSync,
		SyncV2:        syncV2,
		Store:         st,
		Sites:         reg,
		Auth:          authSvc,
		Admin:         adm,
		Log:           log.With("component", "api"),
		BaseURL:       cfg.PublicBaseURL,
		Version:       version,
		Userjs:        userscript.Source,
		Metrics:       metrics,
	})
	if err != nil {
		return nil, err
	}
	pages := web.New(web.Deps{
		Store: st, Sites: reg, Admin: adm, Auth: authSvc, OwnerDiscordID: cfg.OwnerDiscordID,
		BaseURL: cfg.PublicBaseURL, OAuth: discordLogin(oauth), Log: log.With("component", "web"), Imports: imp,
		ReaderNotices: readerNotices, Budget: budget, Trackers: trackerSvc, SyncKeys: syncKeys(phoneSync, authSvc),
	})
	srv.MountWeb(pages)
	return &app{
		sites:   reg,
		handler: srv,
		start: func(ctx context.Context) {
			adm.Start(ctx)
			mgr.Start(ctx)
			readerNotices.Start(ctx)
			imp.Start(ctx)
			if trackerSvc != nil {
				trackerSvc.Start(ctx)
			}
			if xwalk != nil {
				xwalk.Start(ctx)
			}
			if feed != nil {
				feed.Start(ctx)
			}
		},
		stop: func() {
			if feed != nil {
				feed.Stop()
			}
			if xwalk != nil {
				xwalk.Stop()
			}
			if trackerSvc != nil {
				trackerSvc.Stop()
			}
			imp.Stop()
			readerNotices.Stop()
			adm.Stop()
			mgr.Stop()
			if bro != nil {
				_ = bro.Close()
			}
		},
	}, nil
}

// discordLogin is the Discord login for the pages: nil (an untyped nil,
// not a nil *auth.OAuth in the interface) when it is off.
func discordLogin(o *auth.OAuth) web.Discord {
	if o == nil {
		return nil
	}
	return o
}

// newRegistry builds the Site registry with SITE_ORIGINS applied; the
// Lanes and `probe` share it.
func newRegistry(cfg config.Config) (*sites.Registry, error) {
	reg, err := registry.FromEnv(cfg.SiteOrigins)
	if err != nil {
		return nil, &config.Error{Var: "SITE_ORIGINS", Reason: err.Error()}
	}
	return reg, nil
}

// newPlainRoute is the plain HTTPS route the Lanes (and `probe`) read
// plain Sites through; its User-Agent names this build's version (the
// link flag -X main.version).
func newPlainRoute() (sites.Fetcher, error) {
	p, err := sites.NewPlain(sites.PlainOptions{Version: version})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// newBrowserRoute is the browser route over BROWSER_WS_URL the Lanes (and
// `probe`) read browser Sites through; nil when the variable is unset, an
// error when it cannot name a DevTools endpoint.
func newBrowserRoute(cfg config.Config, log *slog.Logger) (*browser.Browser, error) {
	if cfg.BrowserWSURL == "" {
		return nil, nil
	}
	return browser.New(browser.Config{WSURL: cfg.BrowserWSURL, Log: log.With("component", "browser")})
}
