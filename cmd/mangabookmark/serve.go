package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/config"
	"mangabookmark/backend/store"
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
	log := env.Log
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}

	app, err := wire(ctx, cfg, st, env)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.ListenAddr)
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
	// Shutdown order: stop taking requests and let in-flight ones finish,
	// then stop the background work.
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), c.ShutdownTimeout)
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
	handler http.Handler
	start   func(ctx context.Context)
	stop    func()
}

// wire builds every collaborator from the configuration.
func wire(ctx context.Context, cfg config.Config, st *store.Store, env *Env) (*app, error) {
	srv := api.New(api.Deps{
		Store:   st,
		Log:     env.Log,
		BaseURL: cfg.PublicBaseURL,
		Version: version,
	})
	return &app{handler: srv, start: func(context.Context) {}, stop: func() {}}, nil
}
