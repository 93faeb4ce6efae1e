package main

import (
	"log/slog"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// newImports builds the import service `serve` runs: MangaDex lists are
// read through the plain route, taking their fetches from the MangaDex
// Lane's Pacer.
func newImports(st *store.Store, reg *sites.Registry, plain sites.Fetcher, log *slog.Logger) (*imports.Service, error) {
	cfg := imports.Config{Store: st, Sites: reg, Log: log}
	if md := reg.Get("mangadex"); md != nil && plain != nil {
		cfg.MangaDexList = imports.MangaDexListReader(md, reg.Pacer(md.Name), plain, lanes.RealClock{})
	}
	return imports.New(cfg)
}
