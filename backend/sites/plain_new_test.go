package sites

import (
	"strings"
	"testing"
	"time"
)

// mustPlain is NewPlain failing the test on error.
func mustPlain(t testing.TB, opts PlainOptions) *Plain {
	t.Helper()
	p, err := NewPlain(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNewPlainValidates shows NewPlain refusing a negative option, naming
// it, where it used to take the default silently; zero still means the
// default.
func TestNewPlainValidates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		field string
		opts  PlainOptions
	}{
		{"ConnectTimeout", PlainOptions{ConnectTimeout: -time.Second}},
		{"TotalTimeout", PlainOptions{TotalTimeout: -1}},
		{"BodyLimit", PlainOptions{BodyLimit: -100}},
		{"MaxRedirects", PlainOptions{MaxRedirects: -1}},
	} {
		p, err := NewPlain(tc.opts)
		if err == nil || p != nil || !strings.Contains(err.Error(), "PlainOptions."+tc.field) {
			t.Errorf("NewPlain(%+v) = %v, %v: want an error naming PlainOptions.%s", tc.opts, p, err, tc.field)
		}
	}
	p := mustPlain(t, PlainOptions{})
	if p.opts.ConnectTimeout != DefaultConnectTimeout || p.opts.TotalTimeout != DefaultTotalTimeout ||
		p.opts.BodyLimit != DefaultBodyLimit || p.opts.MaxRedirects != DefaultMaxRedirects {
		t.Errorf("zero options did not take the defaults: %+v", p.opts)
	}
	p = mustPlain(t, PlainOptions{BodyLimit: 100, MaxRedirects: 1})
	if p.opts.BodyLimit != 100 || p.opts.MaxRedirects != 1 {
		t.Errorf("set options changed: %+v", p.opts)
	}
}
