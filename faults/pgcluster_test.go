package faults

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
)

// pgCluster is a private PostgreSQL cluster for one test, so stopping it
// touches no other test package's server.
type pgCluster struct {
	t      *testing.T
	bin    string // directory of initdb and pg_ctl
	dir    string // temp dir: data/, the socket, the log
	port   int
	asUser bool // run the tools as the postgres user (we are root)
}

// findPGBin finds the directory holding initdb and pg_ctl.
func findPGBin() string {
	if dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(dirs) > 0 {
		for i := len(dirs) - 1; i >= 0; i-- {
			if _, err := os.Stat(filepath.Join(dirs[i], "pg_ctl")); err == nil {
				return dirs[i]
			}
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
	}
	return ""
}

// skipOrFail skips with the reason, or fails under CI=true.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// newPGCluster initialises and starts a cluster on a free port.
func newPGCluster(t *testing.T) *pgCluster {
	t.Helper()
	bin := findPGBin()
	if bin == "" {
		skipOrFail(t, "no initdb/pg_ctl found (/usr/lib/postgresql/*/bin or PATH)")
	}
	c := &pgCluster{t: t, bin: bin, asUser: os.Geteuid() == 0}
	if c.asUser {
		if _, err := user.Lookup("postgres"); err != nil {
			skipOrFail(t, "running as root and no postgres user to run initdb as")
		}
		if _, err := exec.LookPath("runuser"); err != nil {
			skipOrFail(t, "running as root and no runuser to drop to the postgres user")
		}
	}
	dir, err := os.MkdirTemp("", "mbfaults-pg")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if c.asUser {
		u, _ := user.Lookup("postgres")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if out, err := c.tool("initdb", "-D", c.data(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"); err != nil {
		skipOrFail(t, "initdb failed: %v\n%s", err, out)
	}
	c.start()
	t.Cleanup(func() { _, _ = c.tool("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop") })
	return c
}

func (c *pgCluster) data() string { return filepath.Join(c.dir, "data") }

// tool runs initdb or pg_ctl, as the postgres user when we are root.
func (c *pgCluster) tool(name string, args ...string) (string, error) {
	path := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.asUser {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = c.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *pgCluster) start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50", c.port, c.dir)
	if out, err := c.tool("pg_ctl", "-D", c.data(), "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "60", "start"); err != nil {
		logs, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		c.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, logs)
	}
}

func (c *pgCluster) stop() {
	c.t.Helper()
	if out, err := c.tool("pg_ctl", "-D", c.data(), "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
		c.t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// url is the cluster's connection URL with a password the trust rule
// ignores (so the backend has one to keep out of its logs).
func (c *pgCluster) url(password string) string {
	return fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres?sslmode=disable", password, c.port)
}
