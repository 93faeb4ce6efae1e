package store

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestNamedArgs: a named statement is rewritten as pgx would, once, and
// every later call with other values takes the kept rewrite; a name the
// statement takes but the call leaves out, or one it does not take, is an
// error, the first time and after.
func TestNamedArgs(t *testing.T) {
	ctx := context.Background()
	const q = `SELECT @b, '@not_a_name', @a, @b -- @nor_this`
	for i, vals := range [][2]any{{1, "x"}, {2, "y"}} {
		sql, args, err := namedArgs{"a": vals[0], "b": vals[1]}.RewriteQuery(ctx, nil, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sql != `SELECT $1, '@not_a_name', $2, $1 -- @nor_this` || !reflect.DeepEqual(args, []any{vals[1], vals[0]}) {
			t.Fatalf("call %d: %q %v", i, sql, args)
		}
	}
	const fresh = `SELECT @a, @b`
	for i := 0; i < 2; i++ {
		if i == 1 { // now kept: the same errors from the kept rewrite
			if _, _, err := (namedArgs{"a": 1, "b": 2}).RewriteQuery(ctx, nil, fresh, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := (namedArgs{"a": 1}).RewriteQuery(ctx, nil, fresh, nil); err == nil || !strings.Contains(err.Error(), "b") {
			t.Fatalf("call %d without b: %v", i, err)
		}
		if _, _, err := (namedArgs{"a": 1, "b": 2, "c": 3}).RewriteQuery(ctx, nil, fresh, nil); err == nil {
			t.Fatalf("call %d with c: no error", i)
		}
	}
	if _, _, err := (namedArgs{"a": 1, "c": 3}).RewriteQuery(ctx, nil, fresh, nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("c instead of b: %v, want b missing", err)
	}
}
