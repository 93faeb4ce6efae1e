package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func tokenEnv(t *testing.T, vars map[string]string) *Env {
	t.Helper()
	return &Env{Log: slog.New(slog.DiscardHandler), Getenv: func(k string) string { return vars[k] }}
}

func TestTokenCommands(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	vars := map[string]string{"DATABASE_URL": dsn, "TOKEN_KEY": strings.Repeat("k", 40), "OWNER_DISCORD_ID": "100000000000000001"}
	env := tokenEnv(t, vars)

	var out bytes.Buffer
	if err := (&TokenCreateCmd{Reader: "200000000000000002", Name: "phone", ReaderName: "Ann", out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	reader := strings.TrimSpace(out.String())
	out.Reset()
	if err := (&TokenCreateCmd{Owner: true, Name: "mbctl", out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	owner := strings.TrimSpace(out.String())

	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := auth.New(auth.Config{Store: st, TokenKey: []byte(vars["TOKEN_KEY"]), OwnerDiscordID: vars["OWNER_DISCORD_ID"]})
	if err != nil {
		t.Fatal(err)
	}
	rid, err := svc.Authenticate(ctx, reader)
	if err != nil || rid.Owner || rid.Name != "Ann" {
		t.Fatalf("reader token: %+v %v", rid, err)
	}
	oid, err := svc.Authenticate(ctx, owner)
	if err != nil || !oid.Owner {
		t.Fatalf("owner token: %+v %v", oid, err)
	}

	out.Reset()
	if err := (&TokenListCmd{out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	list := out.String()
	if !strings.Contains(list, "phone") || !strings.Contains(list, "mbctl") || !strings.Contains(list, "(Owner)") || strings.Contains(list, reader[3:]) {
		t.Fatalf("list:\n%s", list)
	}

	out.Reset()
	if err := (&TokenRevokeCmd{ID: rid.TokenID, out: &out}).Run(ctx, env); err != nil {
		t.Fatal(err)
	}
	// A fresh service, as the serving process sees it once its 10 s
	// authentication cache has passed.
	fresh, err := auth.New(auth.Config{Store: st, TokenKey: []byte(vars["TOKEN_KEY"])})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Authenticate(ctx, reader); err == nil {
		t.Fatal("revoked token still authenticates")
	}
	if err := (&TokenRevokeCmd{ID: 99999, out: &out}).Run(ctx, env); err == nil || !strings.Contains(err.Error(), "token list") {
		t.Fatalf("revoke unknown: %v", err)
	}

	// Owner token without OWNER_DISCORD_ID: a clear error.
	delete(vars, "OWNER_DISCORD_ID")
	err = (&TokenCreateCmd{Owner: true, Name: "x", out: &out}).Run(ctx, tokenEnv(t, vars))
	if err == nil || !strings.Contains(err.Error(), "OWNER_DISCORD_ID") {
		t.Fatalf("owner without OWNER_DISCORD_ID: %v", err)
	}
	if err := (&TokenCreateCmd{Name: "x", out: &out}).Run(ctx, env); err == nil {
		t.Fatal("create with neither --reader nor --owner succeeded")
	}
}
