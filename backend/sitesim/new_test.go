package sitesim

import (
	"strings"
	"testing"
)

// mustNew is New failing the test on error.
func mustNew(t testing.TB, cfg Config) *Sim {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNewValidates shows New refusing a negative SeriesPerSite, naming the
// field, where it used to serve 100 Series silently; zero still means 100.
func TestNewValidates(t *testing.T) {
	t.Parallel()
	s, err := New(Config{SeriesPerSite: -3})
	if err == nil || s != nil || !strings.Contains(err.Error(), "Config.SeriesPerSite") {
		t.Fatalf("New(SeriesPerSite: -3) = %v, %v: want an error naming Config.SeriesPerSite", s, err)
	}
	if n := mustNew(t, Config{}).SeriesPerSite(); n != 100 {
		t.Errorf("zero SeriesPerSite serves %d Series, want the default 100", n)
	}
	if n := mustNew(t, Config{SeriesPerSite: 7}).SeriesPerSite(); n != 7 {
		t.Errorf("SeriesPerSite 7 serves %d", n)
	}
}
