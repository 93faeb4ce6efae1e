package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/client"
	"mangabookmark/cmd/mbctl/cli"
	"mangabookmark/internal/golden"
	"mangabookmark/tui"
)

type run struct {
	code           int
	stdout, stderr string
}

// mbctl runs Main in-process against server with the given environment.
func mbctl(t *testing.T, env map[string]string, configDir string, args ...string) run {
	t.Helper()
	return mbctlTerm(t, false, env, configDir, args...)
}

// mbctlTerm is mbctl with stdout said to be a terminal or not.
func mbctlTerm(t *testing.T, terminal bool, env map[string]string, configDir string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, cli.Env{
		Getenv:    func(k string) string { return env[k] },
		Stdout:    &out,
		Stderr:    &errb,
		Now:       func() time.Time { return admintest.Now },
		ConfigDir: func() (string, error) { return configDir, nil },
		Version:   "v1.2.3-test",
		Terminal:  terminal,
		Dashboard: func(context.Context, *client.Client, *cli.Deps) error { return nil },
	})
	return run{code: code, stdout: out.String(), stderr: errb.String()}
}

func ownerEnv(f *apitest.Fixture) map[string]string {
	return map[string]string{"MBCTL_SERVER": f.URL(), "MBCTL_TOKEN": apitest.OwnerToken}
}

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func TestReadCommandsGolden(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	env := ownerEnv(f)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"lanes", []string{"lanes"}},
		{"passes", []string{"passes", "weebcentral", "--limit", "6"}},
		{"failing", []string{"failing"}},
		{"failing_comix_unfetchable", []string{"failing", "--site", "comix", "--outcome", "unfetchable"}},
		{"failing_limited", []string{"failing", "--limit", "2"}},
		{"notices", []string{"notices"}},
		{"version", []string{"version"}},
	} {
		for _, asJSON := range []bool{false, true} {
			name, args := c.name, c.args
			if asJSON {
				name, args = name+".json", append([]string{"--json"}, args...)
			}
			r := mbctl(t, env, dir, args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("mbctl %v = %d, stderr %q", args, r.code, r.stderr)
			}
			if asJSON && !json.Valid([]byte(r.stdout)) {
				t.Errorf("mbctl %v printed invalid JSON: %s", args, r.stdout)
			}
			goldenFile(t, name, r.stdout)
		}
	}
}

func TestActCommandsGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"force", []string{"force", "weebcentral", "3"}},
		{"pause", []string{"pause", "weebcentral", "2h30m", "--reason", "mirror moving"}},
		{"pause_days", []string{"pause", "mangapill", "1d"}},
		{"resume", []string{"resume", "mangadex"}},
	} {
		for _, asJSON := range []bool{false, true} {
			f := apitest.Start(t)
			name, args := c.name, c.args
			if asJSON {
				name, args = name+".json", append([]string{"--json"}, args...)
			}
			r := mbctl(t, ownerEnv(f), t.TempDir(), args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("mbctl %v = %d, stderr %q", args, r.code, r.stderr)
			}
			goldenFile(t, name, r.stdout)
			if got := f.Lanes.Wakes(); len(got) != 1 || got[0] != args[len(args)-len(c.args)+1] {
				t.Errorf("mbctl %v woke %v", args, got)
			}
		}
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	owner := ownerEnv(f)
	reader := map[string]string{"MBCTL_SERVER": f.URL(), "MBCTL_TOKEN": apitest.ReaderToken}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := map[string]string{"MBCTL_SERVER": "http://" + ln.Addr().String(), "MBCTL_TOKEN": "x"}
	ln.Close()
	empty := t.TempDir()
	for _, c := range []struct {
		name   string
		env    map[string]string
		args   []string
		want   int
		stderr string
	}{
		{"unknown command", owner, []string{"frobnicate"}, 2, "unexpected argument"},
		{"missing arg", owner, []string{"force", "weebcentral"}, 2, "expected"},
		{"bad duration", owner, []string{"pause", "weebcentral", "soon"}, 2, "not a duration"},
		{"zero duration", owner, []string{"pause", "weebcentral", "0s"}, 2, "not a positive duration"},
		{"bad outcome", owner, []string{"failing", "--outcome", "ok"}, 2, "--outcome"},
		{"bad limit", owner, []string{"passes", "kagane", "--limit", "0"}, 2, "--limit"},
		{"no server", map[string]string{}, []string{"lanes"}, 2, "no server given"},
		{"no token", map[string]string{"MBCTL_SERVER": f.URL()}, []string{"lanes"}, 2, "no token given"},
		{"bad server URL", map[string]string{"MBCTL_SERVER": "ftp://x", "MBCTL_TOKEN": "t"}, []string{"lanes"}, 2, "http(s)"},
		{"reader token", reader, []string{"lanes"}, 1, "Owner only"},
		{"bad token", map[string]string{"MBCTL_SERVER": f.URL(), "MBCTL_TOKEN": "nope"}, []string{"notices"}, 1, "unknown or revoked"},
		{"unknown site", owner, []string{"passes", "nosuch"}, 1, "weebcentral"},
		{"unknown series", owner, []string{"force", "kagane", "999"}, 1, "999"},
		{"unreachable lanes", gone, []string{"lanes"}, 3, "cannot reach"},
		{"unreachable force", gone, []string{"force", "kagane", "1"}, 3, "cannot reach"},
		{"unreachable dashboard", gone, []string{}, 0, ""},
		{"help", owner, []string{"--help"}, 0, ""},
		{"health", map[string]string{"MBCTL_SERVER": f.URL()}, []string{"health"}, 0, ""},
		{"health unreachable", gone, []string{"health"}, 3, "cannot reach"},
		{"health no server", map[string]string{}, []string{"health"}, 2, "no server given"},
	} {
		r := mbctl(t, c.env, empty, c.args...)
		if r.code != c.want || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("%s: mbctl %v = %d, stderr %q; want %d with %q", c.name, c.args, r.code, r.stderr, c.want, c.stderr)
		}
	}
}

func TestLoginWritesConfig(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	dir := t.TempDir()
	if r := mbctl(t, nil, dir, "login", "--server", f.URL(), "--token", apitest.ReaderToken); r.code != 1 {
		t.Errorf("login with a Reader token = %d, want 1 (%s)", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "mangabookmark", "mbctl.json")); err == nil {
		t.Errorf("a refused login wrote the config file")
	}
	r := mbctl(t, nil, dir, "login", "--server", f.URL(), "--token", apitest.OwnerToken)
	if r.code != 0 {
		t.Fatalf("login = %d %s", r.code, r.stderr)
	}
	st, err := os.Stat(filepath.Join(dir, "mangabookmark", "mbctl.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config file = %v, %v; want mode 0600", st, err)
	}
	// With no flags and no environment, commands use the saved pair.
	if r := mbctl(t, nil, dir, "notices"); r.code != 0 || !strings.Contains(r.stdout, "sidecar-down") {
		t.Errorf("notices from config = %d %q %q", r.code, r.stdout, r.stderr)
	}
	// A flag beats the file.
	if r := mbctl(t, nil, dir, "--token", "nope", "notices"); r.code != 1 {
		t.Errorf("--token over config = %d, want 1", r.code)
	}
}

func TestColourOnlyOnTerminalsWithoutNoColor(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	env := ownerEnv(f)
	if r := mbctl(t, env, t.TempDir(), "lanes"); strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour codes written to a pipe: %q", r.stdout)
	}
	r := mbctlTerm(t, true, env, t.TempDir(), "lanes")
	if !strings.Contains(r.stdout, "\x1b[38;2;207;92;77mrefusing") {
		t.Errorf("no fault colour on refusing on a terminal: %q", r.stdout)
	}
	env["NO_COLOR"] = "1"
	if r := mbctlTerm(t, true, env, t.TempDir(), "lanes"); strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour codes despite NO_COLOR: %q", r.stdout)
	}
}

// `mbctl dashboard --login-link-file` (make demo) hands the dashboard the
// demo's login URL on the server and the library's URL; a file holding
// anything else is a usage error naming it, and nothing is shown.
func TestDashboardDemoLinks(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(file string) (tui.Demo, int, string) {
		var got tui.Demo
		var errb bytes.Buffer
		code := cli.Main([]string{"dashboard", "--login-link-file", file}, cli.Env{
			Getenv: func(k string) string { return ownerEnv(f)[k] }, Stdout: io.Discard, Stderr: &errb,
			Now: func() time.Time { return admintest.Now }, ConfigDir: func() (string, error) { return dir, nil },
			Dashboard: func(_ context.Context, _ *client.Client, d *cli.Deps) error { got = d.Demo(); return nil },
		})
		return got, code, errb.String()
	}
	base := strings.TrimRight(f.URL(), "/")
	got, code, stderr := run(write("link", "/login/once/AbC-123_x\n"))
	if code != 0 || got.LoginURL != base+"/login/once/AbC-123_x" || got.WebURL != base+"/" {
		t.Fatalf("exit %d %q: %+v", code, stderr, got)
	}
	for _, bad := range []string{"", "/admin\n", "/login/once/a b\n", "/login/once/\x1b]52;c;eA==\x07\n", "https://elsewhere.example/login/once/x\n"} {
		got, code, stderr := run(write("bad", bad))
		if code != 2 || got != (tui.Demo{}) || !strings.Contains(stderr, "login-link-file") {
			t.Errorf("%q: exit %d, %+v, %q", bad, code, got, stderr)
		}
	}
	if _, code, stderr := run(filepath.Join(dir, "missing")); code != 2 || !strings.Contains(stderr, "login-link-file") {
		t.Errorf("a missing file: exit %d %q", code, stderr)
	}
}
