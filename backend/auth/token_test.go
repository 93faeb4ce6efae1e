package auth

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestTokenLifecycle(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	svc := mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ownerID, Now: func() time.Time { return now }})

	plain, _, err := svc.MintTokenRow(ctx, "200000000000000002", "Alice", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(plain, TokenPrefix) || len(plain) != len(TokenPrefix)+43 {
		t.Fatalf("token shape %q", plain)
	}
	// Only the HMAC is stored: no column holds the plaintext or its body.
	var stored []byte
	if err := st.Pool().QueryRow(ctx, `SELECT hmac FROM tokens`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 32 || bytes.Contains(stored, []byte(plain[3:])) {
		t.Fatalf("stored form %x is not a 32-byte HMAC", stored)
	}
	var dump string
	if err := st.Pool().QueryRow(ctx, `SELECT string_agg(t::text, ' ') FROM tokens t`).Scan(&dump); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dump, plain[3:]) {
		t.Fatal("plaintext token in the tokens table")
	}

	id, err := svc.Authenticate(ctx, plain)
	if err != nil || id.DiscordID != "200000000000000002" || id.Name != "Alice" || id.Owner || id.TokenID == 0 {
		t.Fatalf("authenticate: %+v %v", id, err)
	}
	// A different TOKEN_KEY does not accept the token.
	if _, err := mustNew(t, Config{Store: st, TokenKey: []byte(testKey + "x"), OwnerDiscordID: ownerID}).Authenticate(ctx, plain); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("other key: %v", err)
	}

	// last_used_at: written on first use, then at most once a minute.
	lastUsed := func() time.Time {
		tk, err := st.GetToken(ctx, id.TokenID)
		if err != nil || tk.LastUsedAt == nil {
			t.Fatalf("token: %+v %v", tk, err)
		}
		return tk.LastUsedAt.UTC()
	}
	if got := lastUsed(); !got.Equal(now) {
		t.Fatalf("last used %v, want %v", got, now)
	}
	first := now
	now = now.Add(30 * time.Second)
	if _, err := svc.Authenticate(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if got := lastUsed(); !got.Equal(first) {
		t.Fatalf("last used moved within the minute: %v", got)
	}
	now = now.Add(31 * time.Second)
	if _, err := svc.Authenticate(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if got := lastUsed(); !got.Equal(now) {
		t.Fatalf("last used %v, want %v after a minute", got, now)
	}

	if err := svc.RevokeToken(ctx, id.TokenID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, plain); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("revoked token: %v", err)
	}
	if err := svc.RevokeToken(ctx, 999999); err == nil {
		t.Fatal("revoking an unknown id succeeded")
	}
	for _, bad := range []string{"", "mb_", "mb_short", plain[3:], "xx" + plain[2:], plain + "A", "mb_" + strings.Repeat("*", 43)} {
		if _, err := svc.Authenticate(ctx, bad); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("malformed %q: %v", bad, err)
		}
	}
}

func TestOwnerToken(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	if _, _, err := mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ""}).MintOwnerToken(ctx, "mbctl"); !errors.Is(err, ErrNoOwner) {
		t.Fatalf("no owner configured: %v", err)
	}
	svc := mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ownerID})
	plain, row, err := svc.MintOwnerToken(ctx, "mbctl")
	if err != nil || row.DiscordID != ownerID || row.Name != "mbctl" {
		t.Fatalf("owner token: %+v %v", row, err)
	}
	id, err := svc.Authenticate(ctx, plain)
	if err != nil || !id.Owner {
		t.Fatalf("owner identity: %+v %v", id, err)
	}
	// Without TOKEN_KEY nothing is minted and nothing authenticates.
	if _, _, err := mustNew(t, Config{Store: st, OwnerDiscordID: ownerID}).MintTokenRow(ctx, "2", "", "x"); err == nil || !strings.Contains(err.Error(), "TOKEN_KEY") {
		t.Fatalf("mint without key: %v", err)
	}
	if _, err := mustNew(t, Config{Store: st, OwnerDiscordID: ownerID}).Authenticate(ctx, plain); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("authenticate without key: %v", err)
	}
	toks, err := svc.ListTokens(ctx)
	if err != nil || len(toks) != 1 || toks[0].RevokedAt != nil {
		t.Fatalf("list: %+v %v", toks, err)
	}
}

// A token revoked by another process (the token CLI) is refused once the
// authentication cache's TTL has passed; one revoked here, at once.
func TestRevocationElsewhereWithinTheCacheTTL(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	server := mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ownerID, Now: func() time.Time { return now }})
	cli := mustNew(t, Config{Store: st, TokenKey: []byte(testKey), OwnerDiscordID: ownerID})
	plain, row, err := cli.MintTokenRow(ctx, "2", "", "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.Authenticate(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if err := cli.RevokeToken(ctx, row.ID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(authCacheTTL)
	if _, err := server.Authenticate(ctx, plain); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("revoked elsewhere, after the TTL: %v", err)
	}
	// Revoked through the serving process: refused immediately.
	plain2, row2, err := server.MintTokenRow(ctx, "3", "", "y")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.Authenticate(ctx, plain2); err != nil {
		t.Fatal(err)
	}
	if err := server.RevokeToken(ctx, row2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Authenticate(ctx, plain2); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("revoked here: %v", err)
	}
}

// mustNew is New for a Config the test knows to be good.
func mustNew(t *testing.T, cfg Config) *Service {
	t.Helper()
	svc, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestNewValidates: New refuses what cannot work instead of correcting it.
func TestNewValidates(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{TokenKey: []byte(testKey)}); err == nil || !strings.Contains(err.Error(), "store") {
		t.Errorf("no store: %v", err)
	}
	_, err := New(Config{Store: &store.Store{}, TokenKey: []byte("short-s3cr3t")})
	if err == nil || !strings.Contains(err.Error(), "TOKEN_KEY") || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("short key: %v", err)
	}
	if _, err := New(Config{Store: &store.Store{}}); err != nil {
		t.Errorf("no key (checks nothing, but runs): %v", err)
	}
}
