package api_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/api"
)

// newServer is api.New for a Config the test knows to be good.
func newServer(t testing.TB, cfg api.Config) *api.Server {
	t.Helper()
	srv, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestNewValidates: New refuses what cannot work instead of correcting it.
func TestNewValidates(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"mb.example.org", "ftp://mb.example.org", "https://", "://x"} {
		if _, err := api.New(api.Config{BaseURL: base}); err == nil || !strings.Contains(err.Error(), "BaseURL") {
			t.Errorf("BaseURL %q: %v, want an error naming BaseURL", base, err)
		}
	}
	m := api.NewMetrics()
	if _, err := api.New(api.Config{Metrics: m, BaseURL: "https://mb.example.org"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.New(api.Config{Metrics: m}); err == nil {
		t.Error("one Metrics accepted for two servers")
	}
}
