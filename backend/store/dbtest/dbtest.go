// Package dbtest gives tests a real, freshly migrated PostgreSQL database of
// their own, so test packages (and tests within them) run in parallel
// without seeing each other's rows.
//
// The server is found through TEST_DATABASE_URL (default: the local
// PostgreSQL at 127.0.0.1:5432 as user postgres). One migrated template
// database is built per schema version and cloned with CREATE DATABASE ...
// TEMPLATE, which takes milliseconds. When no server answers, tests skip
// with a message, unless CI is set, where they fail.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store"
	"mangabookmark/migrations"
)

// DefaultURL is the server used when TEST_DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// ServerURL returns the administrative connection URL of the test server.
func ServerURL() string {
	if v := os.Getenv("TEST_DATABASE_URL"); v != "" {
		return v
	}
	return DefaultURL
}

// New creates a fresh migrated database for t, opens a Store on it and
// drops both when t ends.
func New(t testing.TB) *store.Store {
	t.Helper()
	dsn := NewURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(st.Close)
	return st
}

// NewURL creates a fresh migrated database for t and returns its URL (for
// tests that run the real binary against it). It is dropped when t ends.
func NewURL(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		unavailable(t, err)
		return ""
	}
	defer admin.Close(ctx)
	templateOnce.Do(func() { templateName, templateErr = ensureTemplate(ctx) })
	if templateErr != nil {
		t.Fatalf("dbtest: template: %v", templateErr)
	}
	name := "mbt_" + binaryName + "_" + randHex(8)
	if err := cloneTemplate(ctx, admin, name); err != nil {
		t.Fatalf("dbtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, ServerURL())
		if err != nil {
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return withDatabase(ServerURL(), name)
}

func unavailable(t testing.TB, err error) {
	t.Helper()
	msg := fmt.Sprintf("dbtest: no PostgreSQL at TEST_DATABASE_URL (default 127.0.0.1:5432): %v; start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` or set TEST_DATABASE_URL", err)
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// ensureTemplate builds (once per schema version, across processes) a
// migrated database to clone. An advisory lock keeps parallel test
// processes from building it twice.
func ensureTemplate(ctx context.Context) (string, error) {
	name := "mbt_template_" + schemaHash()
	c, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "SELECT pg_advisory_lock(714023)"); err != nil {
		return "", err
	}
	defer func() { _, _ = c.Exec(context.Background(), "SELECT pg_advisory_unlock(714023)") }()
	var exists bool
	if err := c.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)")
	if _, err := c.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	st, err := store.Open(ctx, withDatabase(ServerURL(), building))
	if err != nil {
		return "", err
	}
	err = st.Migrate(ctx)
	st.Close()
	if err != nil {
		return "", err
	}
	if _, err := c.Exec(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

func cloneTemplate(ctx context.Context, admin *pgx.Conn, name string) error {
	var err error
	for i := 0; i < 50; i++ {
		// CREATE DATABASE fails while another session is connected to the
		// template (a concurrent clone); retry briefly.
		if _, err = admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+templateName); err == nil {
			// A test database is thrown away: its commits need not wait
			// for the disk. The Lanes' simulated days commit tens of
			// thousands of reads, and on the CI machine that wait was
			// much of the suite's time (docs/development.md).
			_, err = admin.Exec(ctx, "ALTER DATABASE "+name+" SET synchronous_commit = off")
			return err
		}
		if !strings.Contains(err.Error(), "being accessed by other users") {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

func schemaHash() string {
	h := sha256.New()
	names, _ := fs.Glob(migrations.FS, "*.sql")
	sort.Strings(names)
	for _, n := range names {
		b, _ := fs.ReadFile(migrations.FS, n)
		h.Write([]byte(n))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func withDatabase(dsn, db string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return dsn + " dbname=" + db
	}
	u.Path = "/" + db
	return u.String()
}

// binaryName is the test binary's package ("lanes" for lanes.test), in
// letters and digits: each database is named mbt_<package>_<random>, so
// pg_stat_activity tells which package holds which connections
// (scripts/pgconns.sh, docs/development.md "PostgreSQL connections").
var binaryName = func() string {
	base := strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		return "x"
	}
	return name[:min(len(name), 24)]
}()

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
