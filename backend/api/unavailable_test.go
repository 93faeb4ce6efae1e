package api_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store/dbtest"
)

// dropDatabase takes the database at dsn away under whatever still uses it,
// as an outage.
func dropDatabase(t *testing.T, dsn string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dbtest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "DROP DATABASE "+u.Path[1:]+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
}

// TestDatabaseOutageIsRetryable: while the database is gone, neither a token
// check nor a write may answer 401 or 500: the client must keep its token
// and its queued reads and try again.
func TestDatabaseOutageIsRetryable(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	fresh := e.token("200000000000000001")  // never used: not in the auth cache
	cached := e.token("200000000000000002") // used once below: cached
	if code, body := e.do(cached, "GET", "/api/me", ""); code != 200 {
		t.Fatalf("me: %d %s", code, body)
	}

	dropDatabase(t, e.st.DSN())

	code, hdr, body := e.doH(fresh, "GET", "/api/me", "", nil)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Fatalf("token check during outage: %d %s (Retry-After %q), want 503", code, body, hdr.Get("Retry-After"))
	}
	read := `{"reads":[{"site":"mangapill","series_id":"2","number":"12","url":"https://mangapill.com/chapters/2-10012000/one-piece-chapter-12","read_at":"2026-05-01T11:00:00Z"}]}`
	code, hdr, body = e.doH(cached, "POST", "/api/progress", read, nil)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Fatalf("write during outage: %d %s, want 503", code, body)
	}
}
