package main

import (
	"strings"
	"testing"

	"mangabookmark/backend/store/dbtest"
)

// TestTokenCreateOwnerNeedsNoName: the bare `token create --owner` of the
// README works (the token's name defaults to "cli").
func TestTokenCreateOwnerNeedsNoName(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": dbtest.NewURL(t), "TOKEN_KEY": strings.Repeat("k", 40), "OWNER_DISCORD_ID": "100000000000000001"}
	if code := run([]string{"token", "create", "--owner"}, func(k string) string { return vars[k] }); code != 0 {
		t.Fatalf("token create --owner exited %d", code)
	}
}

// TestCommandLineMistakeExits2: an unknown command or flag exits 2, the
// code of every start-up mistake.
func TestCommandLineMistakeExits2(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"serve", "--no-such-flag"}, {"migrate", "sideways"}} {
		if code := run(args, func(string) string { return "" }); code != 2 {
			t.Errorf("mangabookmark %s exited %d, want 2", strings.Join(args, " "), code)
		}
	}
}
