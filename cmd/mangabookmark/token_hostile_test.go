package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A Discord display name or token name holding terminal escapes (stored by
// a path that did not clean it) shows in `token list` as visible symbols,
// and a new name is stored clean.
func TestTokenListShowsNamesInert(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	vars := map[string]string{"DATABASE_URL": dsn, "TOKEN_KEY": strings.Repeat("k", 40), "OWNER_DISCORD_ID": "100000000000000001"}
	env := tokenEnv(t, vars)
	var out bytes.Buffer
	if err := (&TokenCreateCmd{Reader: "200000000000000002", Name: "phone\x1b[2J", ReaderName: "Ann\x1b]0;pwned\x07", out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var name, tok string
	if err := st.Pool().QueryRow(ctx, `SELECT r.name, t.name FROM readers r JOIN tokens t ON t.reader_id = r.id`).Scan(&name, &tok); err != nil {
		t.Fatal(err)
	}
	if name != "Ann]0;pwned" || tok != "phone[2J" {
		t.Errorf("stored reader %q, token %q; want the control characters gone", name, tok)
	}
	// Raw SQL on purpose: the row is the attack. The store cleans a name
	// as it writes it (checked above), so only a forged row holds the
	// control characters under test.
	if _, err := st.Pool().Exec(ctx, `UPDATE readers SET name = $1`, "Ann\x1b]0;pwned\x07\u009b31m"); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := (&TokenListCmd{out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	list := out.String()
	if strings.ContainsAny(list, "\x1b\x07\u009b") || !strings.Contains(list, `Ann␛]0;pwned␇\u009b31m`) {
		t.Errorf("token list shows the name unsafely:\n%q", list)
	}
}

// The binary refuses a removed pace knob set to "" (os.LookupEnv semantics)
// with the configuration exit code, before it touches the database.
func TestEmptyRemovedKnobStopsTheBinary(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "TOKEN_KEY": strings.Repeat("k", 40),
		"LATEST_CHAPTER_POLL_BATCH": ""}
	getenv := func(k string) string { return vars[k] }
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	if code := runLookup([]string{"token", "list"}, getenv, lookup); code != 2 {
		t.Errorf("LATEST_CHAPTER_POLL_BATCH= exited %d, want 2 (configuration refused)", code)
	}
}
