// Package proctest runs the real mangabookmark binary in tests: it builds
// the binary once per test process, finds free loopback ports, gives the
// child an environment free of the developer's own backend variables and
// reads the child's memory.
package proctest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds ./cmd/mangabookmark once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			buildErr = fmt.Errorf("go env GOMOD: %w", err)
			return
		}
		dir, err := os.MkdirTemp("", "mbbin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mangabookmark")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/mangabookmark")
		cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%w: %s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("proctest: build: %v", buildErr)
	}
	return binPath
}

// FreeAddr returns a loopback address with a port free at the time of the call.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// CleanEnv is this process's environment without any of the backend's
// variables, plus extra, so a developer's shell cannot change what a test sees.
func CleanEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "LATEST_CHAPTER_"), strings.HasPrefix(k, "DISCORD_"), strings.HasPrefix(k, "LOG_"),
			k == "DATABASE_URL", k == "LISTEN_ADDR", k == "PUBLIC_BASE_URL", k == "TOKEN_KEY",
			k == "OWNER_DISCORD_ID", k == "BROWSER_WS_URL", k == "SITE_ORIGINS":
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// Memory returns a running process's resident set size (VmRSS) and its peak
// (VmHWM) in KiB, from /proc. Both are 0 once the process has exited (a
// zombie has no memory lines) or when /proc cannot be read.
func Memory(pid int) (rssKB, hwmKB int64) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "VmRSS:":
			rssKB, _ = strconv.ParseInt(f[1], 10, 64)
		case "VmHWM:":
			hwmKB, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	return rssKB, hwmKB
}
