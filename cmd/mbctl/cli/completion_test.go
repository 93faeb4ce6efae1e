package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// complete asks Main for completions as bash does: the line typed so far in
// COMP_LINE, the completions one per line on stdout.
func complete(t *testing.T, line string) []string {
	t.Helper()
	t.Setenv("COMP_LINE", line)
	t.Setenv("COMP_POINT", "")
	r := mbctl(t, nil, t.TempDir())
	if r.code != 0 {
		t.Fatalf("completing %q: exit %d, stderr %s", line, r.code, r.stderr)
	}
	got := strings.Fields(r.stdout)
	slices.Sort(got) // the completer's order is a map's
	return got
}

func TestShellCompletion(t *testing.T) {
	for line, want := range map[string][]string{
		"mbctl pa":                  {"passes", "pause"},
		"mbctl failing --out":       {"--outcome"},
		"mbctl install-com":         {"install-completions"},
		"mbctl lanes --js":          {"--json"},
		"mbctl no-such-command-xyz": nil,
	} {
		got := complete(t, line)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("completing %q: got %q, want %q", line, got, want)
		}
	}
}

func TestInstallCompletionsPrintsTheShellLine(t *testing.T) {
	out, err := exec.Command("getent", "passwd", strconv.Itoa(os.Getuid())).Output()
	if err != nil {
		t.Skip("needs getent to know the login shell")
	}
	ent := strings.Split(strings.TrimSpace(string(out)), ":")
	shell := filepath.Base(ent[len(ent)-1])
	r := mbctl(t, nil, t.TempDir(), "install-completions")
	exe, _ := os.Executable()
	switch shell {
	case "bash", "zsh", "fish":
		if r.code != 0 || !strings.Contains(r.stdout, exe) || !strings.Contains(r.stdout, "mbctl") {
			t.Fatalf("install-completions for %s: exit %d\n%s%s", shell, r.code, r.stdout, r.stderr)
		}
		if shell == "bash" && strings.TrimSpace(r.stdout) != "complete -C "+exe+" mbctl" {
			t.Fatalf("bash line: %q", r.stdout)
		}
	default:
		if r.code == 0 || !strings.Contains(r.stderr, "unsupported shell") {
			t.Fatalf("install-completions for %s: exit %d\n%s%s", shell, r.code, r.stdout, r.stderr)
		}
	}
}
