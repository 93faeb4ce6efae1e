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
