package lanes

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/store/dbtest"
)

// mustNotices is NewNotices failing the test on error.
func mustNotices(t testing.TB, cfg NoticesConfig) *Notices {
	t.Helper()
	n, err := NewNotices(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNewValidates shows New refusing a Config that cannot work with an
// error naming the field, where it used to correct it silently (a
// LockRetry over 10s was cut to 10s, a negative bound became the default),
// and filling in the documented defaults of zero fields.
func TestNewValidates(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	site, _ := sitestest.Site("s", false)
	reg, err := sites.NewRegistry([]*sites.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	base := Config{Store: st, Sites: reg, Plain: sitestest.NewFetcher()}
	for _, tc := range []struct {
		field string
		mod   func(*Config)
	}{
		{"Config.Store", func(c *Config) { c.Store = nil }},
		{"Config.Plain", func(c *Config) { c.Plain = nil }},
		{"Config.ReadTimeout", func(c *Config) { c.ReadTimeout = -time.Second }},
		{"Config.PassSpan", func(c *Config) { c.PassSpan = -time.Minute }},
		{"Config.LockRetry", func(c *Config) { c.LockRetry = -time.Second }},
		{"Config.LockRetry", func(c *Config) { c.LockRetry = 11 * time.Second }},
		{"Config.BeatEvery", func(c *Config) { c.BeatEvery = -time.Second }},
		{"Config.TakeoverAfter", func(c *Config) { c.TakeoverAfter = -time.Second }},
		{"Config.TakeoverAfter", func(c *Config) { c.BeatEvery, c.TakeoverAfter = time.Minute, 2*time.Minute }},
		{"Config.WatchEvery", func(c *Config) { c.WatchEvery = -time.Minute }},
		{"Config.CoverWorkers", func(c *Config) { c.CoverWorkers = -1 }},
		{"Config.CoverLimit", func(c *Config) { c.CoverLimit = -1 }},
	} {
		cfg := base
		tc.mod(&cfg)
		m, err := New(cfg)
		if err == nil {
			t.Errorf("%s: New accepted %+v (LockRetry %v)", tc.field, cfg, m.cfg.LockRetry)
			continue
		}
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("error %q does not name %s", err, tc.field)
		}
	}

	m, err := New(base)
	if err != nil {
		t.Fatal(err)
	}
	got := m.cfg
	if got.ReadTimeout != 4*time.Minute || got.PassSpan != 5*time.Minute || got.LockRetry != 5*time.Second ||
		got.BeatEvery != 10*time.Second || got.TakeoverAfter != 2*time.Minute || got.WatchEvery != time.Minute ||
		got.CoverWorkers != 4 || got.CoverLimit != 2<<20 || got.Clock == nil || got.Log == nil {
		t.Errorf("defaults not filled in: %+v", got)
	}
	if cap(m.covers.sem) != 4 || m.covers.limit != 2<<20 {
		t.Errorf("cover healer: %d workers, limit %d", cap(m.covers.sem), m.covers.limit)
	}
}

// TestNewNoticesValidates shows NewNotices refusing a missing Store and a
// BaseURL that cannot root a deep link, naming the field.
func TestNewNoticesValidates(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	for _, tc := range []struct {
		cfg   NoticesConfig
		field string
	}{
		{NoticesConfig{}, "NoticesConfig.Store"},
		{NoticesConfig{Store: st, BaseURL: "manga.example.org"}, "NoticesConfig.BaseURL"},
		{NoticesConfig{Store: st, BaseURL: "/admin"}, "NoticesConfig.BaseURL"},
		{NoticesConfig{Store: st, BaseURL: "ftp://manga.example.org"}, "NoticesConfig.BaseURL"},
		{NoticesConfig{Store: st, BaseURL: "https://"}, "NoticesConfig.BaseURL"},
	} {
		_, err := NewNotices(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("NewNotices(%+v) = %v, want an error naming %s", tc.cfg, err, tc.field)
		}
	}
	n := mustNotices(t, NoticesConfig{Store: st, Sites: ntSites(), BaseURL: "https://manga.example.org/"})
	if n.baseURL != "https://manga.example.org" || len(n.browserSites) != 3 || n.log == nil {
		t.Errorf("notices %+v", n)
	}
	mustNotices(t, NoticesConfig{Store: st}) // no link, no sender, no log: all defaults
}
