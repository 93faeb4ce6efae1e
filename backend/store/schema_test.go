package store_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mangabookmark/backend/store/dbtest"
	"mangabookmark/internal/golden"
	"mangabookmark/migrations"
)

// schemaGolden is the schema the migrations add up to, as pg_dump prints
// it: the one file that shows every table, index, function and trigger as
// they stand (store/doc.go describes the functions and triggers from it).
const schemaGolden = "testdata/schema.sql"

// TestSchemaGolden dumps a freshly migrated database with pg_dump
// --schema-only and compares it with testdata/schema.sql. A migration that
// changes the schema fails it until `go test ./backend/store -run
// TestSchemaGolden -update` rewrites the file, so every schema change is
// reviewed as a diff of it.
func TestSchemaGolden(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	major, dbName := serverMajor(ctx, t, url)
	bin := findPGDump(major)
	if bin == "" {
		msg := fmt.Sprintf("no pg_dump on PATH or under /usr/lib/postgresql/*/bin (the schema golden needs the one of PostgreSQL %d; apt-get install postgresql-client-%d)", major, major)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.CommandContext(ctx, bin, "--schema-only", "--no-owner", "--no-privileges", "--dbname="+url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	got := normalizeDump(string(out), dbName)
	if !golden.Updating() {
		if want, err := os.ReadFile(schemaGolden); err == nil && string(want) != got {
			// Say which pg_dump wrote this, since another major version
			// prints slightly different SQL for the same schema.
			t.Logf("dumped with %s (server major %d)", bin, major)
		}
	}
	golden.Check(t, schemaGolden, []byte(got))
}

// serverMajor returns the server's major version and the database's name.
func serverMajor(ctx context.Context, t *testing.T, url string) (int, string) {
	t.Helper()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var num int
	var name string
	if err := c.QueryRow(ctx, `SELECT current_setting('server_version_num')::int, current_database()`).Scan(&num, &name); err != nil {
		t.Fatal(err)
	}
	return num / 10000, name
}

// findPGDump finds pg_dump as scripts/db.sh finds the server's binaries,
// preferring the server's own major version (Debian keeps each under
// /usr/lib/postgresql/N/bin), then PATH, then the newest installed.
func findPGDump(major int) string {
	own := fmt.Sprintf("/usr/lib/postgresql/%d/bin/pg_dump", major)
	if _, err := os.Stat(own); err == nil {
		return own
	}
	if p, err := exec.LookPath("pg_dump"); err == nil {
		return p
	}
	all, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump")
	sort.Slice(all, func(i, j int) bool { return versionOf(all[i]) < versionOf(all[j]) })
	if len(all) > 0 {
		return all[len(all)-1]
	}
	return ""
}

func versionOf(path string) int {
	var n int
	_, _ = fmt.Sscanf(filepath.Base(filepath.Dir(filepath.Dir(path))), "%d", &n)
	return n
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

// normalizeDump keeps the schema and drops what varies between runs and
// pg_dump builds: the preamble before the first object (the version
// comments, the session SETs, and the random \restrict token recent
// pg_dumps print), the \unrestrict line and the closing comment. The test
// database's random name, should pg_dump print it, becomes "mangabookmark".
func normalizeDump(dump, dbName string) string {
	dump = strings.ReplaceAll(dump, "\r\n", "\n")
	if i := strings.Index(dump, "--\n-- Name: "); i >= 0 {
		dump = dump[i:]
	}
	var b strings.Builder
	b.WriteString("-- The schema the migrations add up to, as pg_dump --schema-only --no-owner\n")
	b.WriteString("-- --no-privileges prints a migrated database. Written by TestSchemaGolden:\n")
	b.WriteString("-- go test ./backend/store -run TestSchemaGolden -update. Do not edit by hand.\n\n")
	for _, line := range strings.Split(dump, "\n") {
		switch {
		case strings.HasPrefix(line, `\restrict `), strings.HasPrefix(line, `\unrestrict `),
			strings.HasPrefix(line, "-- Dumped from database version"),
			strings.HasPrefix(line, "-- Dumped by pg_dump version"),
			line == "-- PostgreSQL database dump complete":
			continue
		}
		b.WriteString(strings.ReplaceAll(line, dbName, "mangabookmark"))
		b.WriteByte('\n')
	}
	out := blankRuns.ReplaceAllString(b.String(), "\n\n")
	return strings.TrimRight(out, "-\n") + "\n"
}

// TestMigrationsGoForwardOnly holds ADR 0001's addendum: no migration has a
// Down section (a downgrade is a restore of the dump taken before the
// upgrade, docs/operations.md "Upgrading").
func TestMigrationsGoForwardOnly(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations embedded: %v", err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("-- +goose Down")) {
			t.Errorf("migrations/%s has a -- +goose Down section: migrations go forward only, a downgrade is a restore (docs/adr/0001, addendum)", n)
		}
	}
}

var schemaRoutine = regexp.MustCompile(`(?m)^-- Name: (?:\S+ )?([a-z_0-9]+)(?:\([^)]*\))?; Type: (FUNCTION|TRIGGER);`)

// TestDocNamesSchemaRoutines keeps doc.go's "What the database does by
// itself" true to the schema golden: every function and trigger the
// migrated database holds is named there, and doc.go names none that is
// gone.
func TestDocNamesSchemaRoutines(t *testing.T) {
	t.Parallel()
	schema, err := os.ReadFile(schemaGolden)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	found := schemaRoutine.FindAllStringSubmatch(string(schema), -1)
	if len(found) < 10 {
		t.Fatalf("only %d functions and triggers found in %s: has pg_dump's comment format changed?", len(found), schemaGolden)
	}
	live := map[string]bool{}
	for _, m := range found {
		live[m[1]] = true
		if !regexp.MustCompile(`\b` + m[1] + `\b`).Match(doc) {
			t.Errorf("doc.go's \"What the database does by itself\" does not name the %s %s", strings.ToLower(m[2]), m[1])
		}
	}
	// Each bullet of the paragraph opens with the routines it describes.
	section := string(doc)
	if i := strings.Index(section, "# What the database does by itself"); i >= 0 {
		section = section[i:]
	}
	if i := strings.Index(section, "pgx.ErrNoRows"); i >= 0 {
		section = section[:i]
	}
	for _, m := range regexp.MustCompile(`(?m)^//   - ([a-z_0-9]+)`).FindAllStringSubmatch(section, -1) {
		if !live[m[1]] {
			t.Errorf("doc.go describes %s, which the schema golden no longer holds", m[1])
		}
	}
}
