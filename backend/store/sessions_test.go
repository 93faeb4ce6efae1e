package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r, err := st.UpsertReader(ctx, "42", "Aki", nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.InsertToken(ctx, r.ID, "web", []byte("hmac-1"), now)
	if err != nil {
		t.Fatal(err)
	}
	h := store.SessionHash("session-id")
	if err := st.CreateSession(ctx, h, tok.ID, now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := st.SessionByHash(ctx, h, now)
	if err != nil || got.ReaderID != r.ID || got.DiscordID != "42" || got.ReaderName != "Aki" || got.TokenID != tok.ID {
		t.Fatalf("lookup: %+v %v", got, err)
	}
	if _, err := st.SessionByHash(ctx, store.SessionHash("other"), now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := st.SessionByHash(ctx, h, now.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired session answered: %v", err)
	}
	if err := st.ExtendSession(ctx, h, now.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SessionByHash(ctx, h, now.Add(2*time.Hour)); err != nil {
		t.Fatalf("extended session refused: %v", err)
	}
	if err := st.RevokeToken(ctx, tok.ID, now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SessionByHash(ctx, h, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session of a revoked token answered: %v", err)
	}
	tok2, _ := st.InsertToken(ctx, r.ID, "web2", []byte("hmac-2"), now)
	h2 := store.SessionHash("second")
	if err := st.CreateSession(ctx, h2, tok2.ID, now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSession(ctx, h2); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SessionByHash(ctx, h2, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted session answered: %v", err)
	}
	n, err := st.PurgeSessions(ctx, now.Add(4*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("purge: %d %v", n, err)
	}
}

func TestLoginLinkWorksOnce(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r, _ := st.UpsertReader(ctx, "1", "Owner", nil)
	tok, err := st.InsertToken(ctx, r.ID, "demo", []byte("hmac"), now)
	if err != nil {
		t.Fatal(err)
	}
	code := store.SessionHash("code")
	if err := st.CreateLoginLink(ctx, code, tok.ID, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ConsumeLoginLink(ctx, code, now.Add(2*time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired link accepted: %v", err)
	}
	if err := st.CreateLoginLink(ctx, code, tok.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	id, err := st.ConsumeLoginLink(ctx, code, now)
	if err != nil || id != tok.ID {
		t.Fatalf("consume: %d %v", id, err)
	}
	if _, err := st.ConsumeLoginLink(ctx, code, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second use accepted: %v", err)
	}
}

func TestLibraryOrderAndMarkRead(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r, _ := st.UpsertReader(ctx, "7", "Mei", nil)
	for _, id := range []string{"old", "new", "unread", "fresh"} {
		if _, err := st.AddBookmark(ctx, r.ID, "kagane", id, "https://kagane.test/series/"+id); err != nil {
			t.Fatal(err)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	set := `UPDATE series SET latest_number = $2, latest_url = $3, latest_seen_at = $4, latest_checked_at = $4 WHERE series_id = $1`
	exec(set, "old", 10, "https://kagane.test/c/old-10", now.Add(-48*time.Hour))
	exec(set, "new", 5, "https://kagane.test/c/new-5", now.Add(-72*time.Hour))
	exec(set, "fresh", 3, "https://kagane.test/c/fresh-3", now.Add(-time.Hour))
	exec(`INSERT INTO progress (reader_id, site, series_id, number, read_at) VALUES ($1, 'kagane', 'new', 4, $2), ($1, 'kagane', 'old', 10, $2)`, r.ID, now)
	if err := st.UpsertFailure(ctx, "kagane", "fresh", "errors", now.Add(-30*time.Minute)); err != nil {
		t.Fatal(err)
	}
	lib, err := st.Library(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, it := range lib {
		order = append(order, it.SeriesID)
	}
	if want := "new fresh old unread"; joined(order) != want {
		t.Fatalf("order %q, want %q", joined(order), want)
	}
	if !lib[0].New || lib[1].FailingSince == nil || lib[1].FailingOutcome != "errors" || lib[3].CheckedAt != nil {
		t.Fatalf("items: %+v", lib)
	}
	moved, err := st.MarkRead(ctx, r.ID, "kagane", "new", now)
	if err != nil || !moved {
		t.Fatalf("mark read: %v %v", moved, err)
	}
	p, err := st.GetProgress(ctx, r.ID, "kagane", "new")
	if err != nil || p.Number != "5" {
		t.Fatalf("progress after mark read: %+v %v", p, err)
	}
	if moved, err := st.MarkRead(ctx, r.ID, "kagane", "unread", now); err != nil || moved {
		t.Fatalf("mark read without a Latest Chapter moved: %v %v", moved, err)
	}
	if _, err := st.MarkRead(ctx, r.ID, "kagane", "nosuch", now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("mark read of no bookmark: %v", err)
	}
	var n int
	_ = st.Pool().QueryRow(ctx, `SELECT count(*) FROM bookmarks WHERE series_id = 'nosuch'`).Scan(&n)
	if n != 0 {
		t.Fatal("mark read created a bookmark")
	}
}

func joined(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}

// A Mark read takes the Progress rule every read takes: it moves a
// Progress a phone synced (or a tracker pulled) forward as the Reader's
// own (source reader, the Latest's URL), and never moves it back.
func TestMarkReadIsTheReadersOwnProgress(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r, _ := st.UpsertReader(ctx, "8", "Rin", nil)
	for _, id := range []string{"a", "b"} {
		if _, err := st.AddBookmark(ctx, r.ID, "kagane", id, "https://kagane.test/series/"+id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE series SET latest_number = 7, latest_url = 'https://kagane.test/c/'||series_id||'-7' WHERE series_id IN ('a', 'b')`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO progress (reader_id, site, series_id, number, read_at, source)
		VALUES ($1, 'kagane', 'a', 3, $2, 'sync'), ($1, 'kagane', 'b', 9, $2, 'sync')`, r.ID, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if moved, err := st.MarkRead(ctx, r.ID, "kagane", "a", now); err != nil || !moved {
		t.Fatalf("mark read: %v %v", moved, err)
	}
	if moved, err := st.MarkRead(ctx, r.ID, "kagane", "b", now); err != nil || moved {
		t.Fatalf("mark read behind Progress moved: %v %v", moved, err)
	}
	got := map[string]string{}
	rows, err := st.Pool().Query(ctx, `SELECT series_id, number::text || ' ' || url || ' ' || source FROM progress WHERE reader_id = $1`, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		got[id] = v
	}
	if rows.Err() != nil || got["a"] != "7 https://kagane.test/c/a-7 reader" || got["b"] != "9  sync" {
		t.Fatalf("progress after mark read: %v %v", got, rows.Err())
	}
}
