package lanes

import (
	"fmt"
	"log/slog"
	"time"
)

// Defaults of a Config field left zero.
const (
	defaultReadTimeout   = 4 * time.Minute
	defaultPassSpan      = 5 * time.Minute
	defaultLockRetry     = 5 * time.Second
	maxLockRetry         = 10 * time.Second // a dead holder's Lanes move within 30s
	defaultBeatEvery     = 10 * time.Second
	defaultTakeoverAfter = 2 * time.Minute
	defaultWatchEvery    = time.Minute
	defaultCoverWorkers  = 4
)

// checked validates cfg and fills in the defaults of its zero fields. A
// value that cannot work is an error naming the field, never corrected.
func (cfg Config) checked() (Config, error) {
	var missing []string
	for _, f := range []struct {
		name string
		nil  bool
	}{{"Store", cfg.Store == nil}, {"Sites", cfg.Sites == nil}, {"Plain", cfg.Plain == nil}} {
		if f.nil {
			missing = append(missing, "Config."+f.name)
		}
	}
	if len(missing) > 0 {
		return cfg, fmt.Errorf("lanes: %v is nil: Store, Sites and Plain are required", missing)
	}
	durations := []struct {
		name string
		d    *time.Duration
		def  time.Duration
	}{
		{"ReadTimeout", &cfg.ReadTimeout, defaultReadTimeout},
		{"PassSpan", &cfg.PassSpan, defaultPassSpan},
		{"LockRetry", &cfg.LockRetry, defaultLockRetry},
		{"BeatEvery", &cfg.BeatEvery, defaultBeatEvery},
		{"TakeoverAfter", &cfg.TakeoverAfter, defaultTakeoverAfter},
		{"WatchEvery", &cfg.WatchEvery, defaultWatchEvery},
	}
	for _, f := range durations {
		if *f.d < 0 {
			return cfg, fmt.Errorf("lanes: Config.%s is %v: want zero (default %v) or more", f.name, *f.d, f.def)
		}
		if *f.d == 0 {
			*f.d = f.def
		}
	}
	if cfg.LockRetry > maxLockRetry {
		return cfg, fmt.Errorf("lanes: Config.LockRetry is %v: at most %v, so a dead holder's Lanes move within 30s", cfg.LockRetry, maxLockRetry)
	}
	if cfg.TakeoverAfter < 3*cfg.BeatEvery {
		return cfg, fmt.Errorf("lanes: Config.TakeoverAfter is %v: want at least three Config.BeatEvery (%v)", cfg.TakeoverAfter, 3*cfg.BeatEvery)
	}
	if cfg.CoverWorkers < 0 {
		return cfg, fmt.Errorf("lanes: Config.CoverWorkers is %d: want zero (default %d) or more", cfg.CoverWorkers, defaultCoverWorkers)
	}
	if cfg.CoverWorkers == 0 {
		cfg.CoverWorkers = defaultCoverWorkers
	}
	if cfg.CoverLimit < 0 {
		return cfg, fmt.Errorf("lanes: Config.CoverLimit is %d: want zero (default %d bytes) or more", cfg.CoverLimit, defaultCoverLimit)
	}
	if cfg.CoverLimit == 0 {
		cfg.CoverLimit = defaultCoverLimit
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return cfg, nil
}
