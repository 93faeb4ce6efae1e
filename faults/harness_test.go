package faults

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/client"
	"mangabookmark/internal/proctest"
)

const (
	ownerID  = "100000000000000001"
	readerID = "200000000000000002"
	// tokenKey is this deployment's TOKEN_KEY; every process of a test
	// shares it unless the test says otherwise.
	tokenKey = "faults-token-key-0123456789abcdef-SECRET"
)

// longForm reports whether the long scenarios run: built with -tags faults
// (make faults) or MB_FAULTS=long in the environment.
func longForm() bool { return tagLong || os.Getenv("MB_FAULTS") == "long" }

// needLong skips a long scenario in the default short form.
func needLong(t *testing.T) {
	t.Helper()
	if !longForm() {
		t.Skip("long fault scenario: run `make faults` (or MB_FAULTS=long go test ./faults/)")
	}
}

// needSuite skips the whole suite under -short (make test-short promises no
// long drives); the short form runs in a plain `go test ./...`.
func needSuite(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("fault suite: not under -short")
	}
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// deployment is one database, one TOKEN_KEY and the simulator, shared by
// the backend processes of a test.
type deployment struct {
	t       *testing.T
	dsn     string
	sim     *sitesim.Sim
	env     map[string]string // the backend's variables
	secrets []string          // strings no log may contain
	owner   string            // an Owner token
	reader  string            // a Reader token
	pool    *pgxpool.Pool
	st      *store.Store // opened by store(), for seeding through storetest

	mu       sync.Mutex
	backends []*backend
	cmdLogs  []string // stderr of one-shot commands
}

// newDeployment gives a fresh database (dsn, or dbtest's when empty), a
// running simulator and an Owner and a Reader token minted through the
// binary's own `token create`.
func newDeployment(t *testing.T, dsn string) *deployment {
	t.Helper()
	if dsn == "" {
		dsn = dbtest.NewURL(t)
	}
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 400})
	d := &deployment{t: t, dsn: dsn, sim: sim, env: map[string]string{
		"DATABASE_URL":     dsn,
		"TOKEN_KEY":        tokenKey,
		"OWNER_DISCORD_ID": ownerID,
		"SITE_ORIGINS":     sim.OriginsValue(),
		"LOG_FORMAT":       "json",
		"LOG_LEVEL":        "debug",
	}}
	d.secrets = append(d.secrets, tokenKey)
	d.owner = d.mint("--owner", "--name", "faults-owner")
	d.reader = d.mint("--reader", readerID, "--reader-name", "Ann", "--name", "faults-reader")
	// The test's own reads go one at a time: two connections keep the
	// fault suite, whose failover tests run two serving processes of 15
	// connections each, within the suite's PostgreSQL budget
	// (docs/development.md, "PostgreSQL connections").
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	d.pool = pool
	t.Cleanup(d.checkLogs)
	return d
}

// run runs a one-shot subcommand of the binary with the deployment's
// environment plus extra and returns stdout; stderr is checked for secrets
// with the rest of the logs.
func (d *deployment) run(extra map[string]string, args ...string) (string, string) {
	d.t.Helper()
	// A bound against a hung command, not a measure: a loaded machine has
	// taken over a minute to start the binary and reach PostgreSQL.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, proctest.Binary(d.t), args...)
	cmd.Env = proctest.CleanEnv(d.envList(extra)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		d.t.Fatalf("mangabookmark %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// mint creates a token with `token create` and returns it.
func (d *deployment) mint(args ...string) string {
	d.t.Helper()
	tok, _ := d.mintWith(nil, args...)
	return tok
}

// mintWith is mint under extra environment; it also returns the token id.
func (d *deployment) mintWith(extra map[string]string, args ...string) (string, int64) {
	d.t.Helper()
	out, errOut := d.run(extra, append([]string{"token", "create"}, args...)...)
	tok := strings.TrimSpace(out)
	if tok == "" || strings.ContainsAny(tok, " \n") {
		d.t.Fatalf("token create printed %q", out)
	}
	var id int64
	for _, line := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(line, "token ") {
			if _, err := fmt.Sscanf(line, "token %d", &id); err == nil {
				break
			}
		}
	}
	if id == 0 {
		d.t.Fatalf("token create stderr has no token id: %q", errOut)
	}
	d.cmdLogs = append(d.cmdLogs, errOut)
	d.secrets = append(d.secrets, tok)
	return tok, id
}

func (d *deployment) envList(extra map[string]string) []string {
	var out []string
	for k, v := range d.env {
		if _, ok := extra[k]; !ok {
			out = append(out, k+"="+v)
		}
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}

// seed bookmarks the first n Series of a Site for the Owner, straight in
// the store, so they are due the moment a Lane starts.
func (d *deployment) seed(site string, n int) []string {
	d.t.Helper()
	ctx := context.Background()
	reg := simtest.Registry(d.t, d.sim)
	st := d.store()
	var rid int64
	if err := d.pool.QueryRow(ctx, `SELECT id FROM readers WHERE discord_id = $1`, ownerID).Scan(&rid); err != nil {
		d.t.Fatalf("owner reader row: %v", err)
	}
	ids := d.sim.SeriesIDs(site, n)
	for _, id := range ids {
		ref, err := reg.Canonicalize(d.sim.SeriesURL(site, id))
		if err != nil {
			d.t.Fatalf("canonicalize %s %s: %v", site, id, err)
		}
		if _, err := st.AddBookmark(ctx, rid, ref.Site, ref.SeriesID, ref.URL); err != nil {
			d.t.Fatal(err)
		}
	}
	return ids
}

// checkLogs fails the test when any backend's or command's log holds a
// secret.
func (d *deployment) checkLogs() {
	d.mu.Lock()
	defer d.mu.Unlock()
	logs := append([]string(nil), d.cmdLogs...)
	for _, b := range d.backends {
		logs = append(logs, b.logs.String())
	}
	for _, l := range logs {
		for _, s := range d.secrets {
			if s != "" && strings.Contains(l, s) {
				d.t.Errorf("a log holds a secret (%.6s…)", s)
			}
		}
	}
}

func (d *deployment) client(tok string, b *backend) *client.Client {
	d.t.Helper()
	c, err := client.New(b.url, tok, client.WithHTTPClient(&http.Client{Timeout: 20 * time.Second}))
	if err != nil {
		d.t.Fatal(err)
	}
	return c
}

// count runs a COUNT-like query returning one integer.
func (d *deployment) count(q string, args ...any) int {
	d.t.Helper()
	var n int
	if err := d.pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		d.t.Fatalf("query %q: %v", q, err)
	}
	return n
}

// passes counts the pass rows of a Site with the given skip value
// ("" for passes that ran).
func (d *deployment) passes(site, skip string) int {
	return d.count(`SELECT count(*) FROM poll_passes WHERE site = $1 AND skip = $2`, site, skip)
}

// activity describes the database sessions of this test's database (what
// each waits on), for the failure message of a stalled Lane.
func (d *deployment) activity() string {
	rows, err := d.pool.Query(context.Background(), `
		SELECT pid, coalesce(state, ''), coalesce(wait_event_type, ''), coalesce(wait_event, ''),
		       coalesce(extract(epoch FROM now() - xact_start)::int, -1), left(query, 160)
		FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		return "pg_stat_activity: " + err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var pid, xact int
		var state, wt, we, q string
		if rows.Scan(&pid, &state, &wt, &we, &xact, &q) == nil {
			fmt.Fprintf(&b, "pid %d %s wait %s/%s xact %ds: %s\n", pid, state, wt, we, xact, strings.Join(strings.Fields(q), " "))
		}
	}
	return b.String()
}

// store opens the deployment's database through the store, once, for
// seeding rows (storetest) as the backends would find them.
func (d *deployment) store() *store.Store {
	d.t.Helper()
	if d.st == nil {
		st, err := store.Open(context.Background(), d.dsn)
		if err != nil {
			d.t.Fatal(err)
		}
		d.t.Cleanup(st.Close)
		d.st = st
	}
	return d.st
}
