package store_test

import (
	"context"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// TestOpenPoolSize: a DATABASE_URL without pool_max_conns gets at least
// store.MinConns; one that names a size keeps it, and one below the
// minimum is refused with a reason instead of being raised behind its back.
func TestOpenPoolSize(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewURL(t)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	for _, c := range []struct {
		query string
		want  int32 // 0: refused
	}{
		{"", store.MinConns},
		{"pool_max_conns=20", 20},
		{"pool_max_conns=8", 8},
		{"pool_max_conns=4", 0},
	} {
		u := dsn
		if c.query != "" {
			u += sep + c.query
		}
		st, err := store.Open(ctx, u)
		if c.want == 0 {
			if err == nil {
				st.Close()
				t.Errorf("%q: opened, want refused", c.query)
			} else if !strings.Contains(err.Error(), "pool_max_conns=4") || strings.Contains(err.Error(), dsn) {
				t.Errorf("%q: error %q should name the setting and never quote the URL", c.query, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		if got := st.Pool().Config().MaxConns; got < c.want || (c.query != "" && got != c.want) {
			t.Errorf("%q: MaxConns %d, want %d", c.query, got, c.want)
		}
		st.Close()
	}
}
