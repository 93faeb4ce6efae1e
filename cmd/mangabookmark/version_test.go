package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Both binaries print the version the build's link flag gives them, the
// way `make build` and the Dockerfile set it (-X main.version=...).
func TestVersionComesFromTheLinkFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	t.Parallel()
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const v = "v9.8.7-test"
	for _, c := range []struct{ name, pkg, flags, want string }{
		{"mangabookmark", "./cmd/mangabookmark", "-X main.version=" + v, "mangabookmark " + v},
		{"mbctl", "./cmd/mbctl", "-X main.version=" + v, "mbctl " + v},
	} {
		bin := filepath.Join(dir, c.name)
		build := exec.Command("go", "build", "-ldflags", c.flags, "-o", bin, c.pkg)
		build.Dir = filepath.Dir(strings.TrimSpace(string(root)))
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", c.name, err, out)
		}
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir)
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
			t.Errorf("%s version: %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}
