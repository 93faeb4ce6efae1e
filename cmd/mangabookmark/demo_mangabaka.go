package main

import (
	"log/slog"
	"strconv"

	"mangabookmark/backend/config"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/mangabaka"
	"mangabookmark/backend/trackers/mangabaka/mangabakatest"
)

// DemoMangaBakaToken is the personal access token to paste on the demo's
// settings page: the MangaBaka stand-in knows it (it is no secret and
// works nowhere else).
const DemoMangaBakaToken = "mb-demo-personal-access-token"

// demoMangaBaka starts the MangaBaka stand-in on listen and points cfg at
// it (TRACKER_ORIGINS' mangabaka entry), with one account reached by
// DemoMangaBakaToken whose library names the mb ids the simulator's
// MangaDex and Comix Series carry (backend/sitesim's Links), read a little
// further than the demo's Progress, and a few ids no Series carries. It
// leaves cfg alone when TRACKER_ORIGINS already names mangabaka, so the
// demo never sends a token to MangaBaka itself. The returned stop closes
// it.
func demoMangaBaka(cfg *config.Config, listen string, series int, log *slog.Logger) (stop func(), err error) {
	if cfg.TrackerOrigins[mangabaka.Name] != "" || listen == "" {
		return func() {}, nil
	}
	mb := mangabakatest.New(mangabakatest.Config{})
	mb.AddUser(DemoMangaBakaToken, "demo", demoMangaBakaEntries(series)...)
	origin, stop, err := demoServe("the MangaBaka stand-in", listen, mb, log)
	if err != nil {
		return nil, err
	}
	if cfg.TrackerOrigins == nil {
		cfg.TrackerOrigins = map[string]string{}
	}
	cfg.TrackerOrigins[mangabaka.Name] = origin
	log.Info("MangaBaka stand-in started", "origin", origin, "token", DemoMangaBakaToken)
	return stop, nil
}

// demoMangaBakaEntries is the demo library: every mb id the first series
// Series of MangaDex and Comix carry, then demoUnmatched ids no Series
// carries.
func demoMangaBakaEntries(series int) []trackers.Entry {
	seen := map[string]bool{}
	var out []trackers.Entry
	for k := range series {
		for _, site := range []string{sitesim.MangaDex, sitesim.Comix} {
			for _, l := range sitesim.Links(site, k) {
				if l.Kind != "mb" || seen[l.Value] {
					continue
				}
				seen[l.Value] = true
				out = append(out, trackers.Entry{MediaID: l.Value, Progress: 3 + k%4, Status: trackers.StatusCurrent})
			}
		}
	}
	for i := range demoUnmatched {
		out = append(out, trackers.Entry{MediaID: strconv.Itoa(880001 + i), Progress: 5 + i, Status: trackers.StatusCurrent})
	}
	return out
}
