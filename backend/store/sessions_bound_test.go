package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A session slid every day still ends SessionLifetime after it started,
// and a token that logs in again and again keeps only the newest
// MaxSessionsPerToken sessions (issue 23: a stolen token's sessions).
func TestSessionsAreBounded(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r, _ := st.UpsertReader(ctx, "42", "Aki", nil)
	tok, err := st.InsertToken(ctx, r.ID, "web", []byte("hmac-1"), now)
	if err != nil {
		t.Fatal(err)
	}
	h := store.SessionHash("slid")
	if err := st.CreateSession(ctx, h, tok.ID, now, now.Add(30*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	at := now
	for day := 1; day <= 95; day++ {
		at = now.Add(time.Duration(day) * 24 * time.Hour)
		if err := st.ExtendSession(ctx, h, at.Add(30*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		_, err := st.SessionByHash(ctx, h, at)
		if alive := err == nil; alive != (day < 90) {
			t.Fatalf("day %d: alive %v (%v), want alive only before day 90", day, alive, err)
		}
	}
	for i := 0; i < store.MaxSessionsPerToken+5; i++ {
		if err := st.CreateSession(ctx, store.SessionHash(fmt.Sprint("s", i)), tok.ID, now.Add(time.Duration(i)*time.Minute), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM web_sessions WHERE token_id = $1`, tok.ID).Scan(&n); err != nil || n != store.MaxSessionsPerToken {
		t.Fatalf("%d sessions kept (%v), want %d", n, err, store.MaxSessionsPerToken)
	}
	if _, err := st.SessionByHash(ctx, store.SessionHash("s0"), now.Add(30*time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the oldest session survived: %v", err)
	}
	if _, err := st.SessionByHash(ctx, store.SessionHash(fmt.Sprint("s", store.MaxSessionsPerToken+4)), now.Add(30*time.Minute)); err != nil {
		t.Fatalf("the newest session: %v", err)
	}
}
