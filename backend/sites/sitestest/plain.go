package sitestest

import (
	"testing"

	"mangabookmark/backend/sites"
)

// Plain is sites.NewPlain failing the test on error: the real plain route
// for tests that read from local servers.
func Plain(t testing.TB, opts sites.PlainOptions) *sites.Plain {
	t.Helper()
	p, err := sites.NewPlain(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
