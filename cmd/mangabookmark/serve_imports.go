package main

import (
	"log/slog"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// newImports builds the import service `serve` runs: MangaDex lists are
// read through the plain route, at MangaDex's Gap.
func newImports(st *store.Store, reg *sites.Registry, plain sites.Fetcher, log *slog.Logger) (*imports.Service, error) {
	cfg := imports.Config{Store: st, Sites: reg, Log: log}
	if md := reg.Get("mangadex"); md != nil && plain != nil {
		cfg.MangaDexList = imports.MangaDexListReader(md, plain, time.Now)
	}
	return imports.New(cfg)
}
