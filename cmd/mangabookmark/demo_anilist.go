package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"mangabookmark/backend/config"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

// The demo's AniList stand-in: its registered client (the Connect button
// works offline) and the user whose public list the Trackers card pulls.
const (
	demoAniListClientID = "20000"
	demoAniListSecret   = "demo-anilist-secret-not-for-production"
	// DemoAniListUser is the AniList user name to type on the demo's
	// settings page; Connect approves as this user at once.
	DemoAniListUser = "demo"
	// demoUnmatched is how many entries of the demo list no Series
	// carries (the card's "not on a Site we read yet").
	demoUnmatched = 7
)

// demoAniList starts the AniList stand-in on listen and points cfg at it
// (TRACKER_ORIGINS' anilist entry and, unless the environment set them,
// the ANILIST_* client), seeded with DemoAniListUser's list: the al ids
// the simulator's MangaDex and Comix Series carry (backend/sitesim's
// Links) for the first series of each, read a little further than the
// demo's Progress, and a few ids no Series carries. It leaves cfg alone
// when TRACKER_ORIGINS already names anilist. The returned stop closes it.
func demoAniList(cfg *config.Config, listen string, series int, log *slog.Logger) (stop func(), err error) {
	if cfg.TrackerOrigins[anilist.Name] != "" || listen == "" {
		return func() {}, nil
	}
	own := cfg.AniListClientID == ""
	id, secret := demoAniListClientID, demoAniListSecret
	if !own {
		id, secret = cfg.AniListClientID, cfg.AniListClientSecret
	}
	al := anilisttest.New(anilisttest.Config{ClientID: id, ClientSecret: secret,
		RedirectURL: cfg.PublicBaseURL + anilist.CallbackPath, ApproveAs: DemoAniListUser})
	al.AddUser(DemoAniListUser, demoAniListEntries(series)...)

	origin, stop, err := demoServe("the AniList stand-in", listen, al, log)
	if err != nil {
		return nil, err
	}
	if cfg.TrackerOrigins == nil {
		cfg.TrackerOrigins = map[string]string{}
	}
	cfg.TrackerOrigins[anilist.Name] = origin
	if own && len(cfg.TokenKey) > 0 {
		cfg.AniListClientID, cfg.AniListClientSecret = demoAniListClientID, demoAniListSecret
	}
	log.Info("AniList stand-in started", "origin", origin, "user", DemoAniListUser, "connect", cfg.AniListEnabled())
	return stop, nil
}

// demoAniListEntries is the demo user's list: every al id the first
// series Series of MangaDex and Comix carry, at a count a little above
// the demo's Progress, then demoUnmatched ids no Series carries.
func demoAniListEntries(series int) []trackers.Entry {
	seen := map[string]bool{}
	var out []trackers.Entry
	for k := range series {
		for _, site := range []string{sitesim.MangaDex, sitesim.Comix} {
			for _, l := range sitesim.Links(site, k) {
				if l.Kind != "al" || seen[l.Value] {
					continue
				}
				seen[l.Value] = true
				out = append(out, trackers.Entry{MediaID: l.Value, Progress: 2 + k%4, Status: trackers.StatusCurrent})
			}
		}
	}
	for i := range demoUnmatched {
		out = append(out, trackers.Entry{MediaID: strconv.Itoa(990001 + i), Progress: 10 + i, Status: trackers.StatusCurrent})
	}
	return out
}

// demoServe serves h on listen in the background, for one of the demo's
// stand-ins (what names it in errors and logs), until stop closes it.
func demoServe(what, listen string, h http.Handler, log *slog.Logger) (origin string, stop func(), err error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", listen)
	if err != nil {
		return "", nil, fmt.Errorf("demo: %s cannot listen on %s: %w", what, listen, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn(what+" stopped", "error", err)
		}
	}()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
