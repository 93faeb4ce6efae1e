// Package chromiumtest starts Debian's Chromium for tests of the browser
// route: headless, remote debugging on loopback, a fresh profile, and a
// process group that is killed when the test ends. Tests skip when Chromium
// is not installed, unless CI=true, where a missing Chromium fails them.
package chromiumtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Path is where Debian's chromium package puts the browser.
const Path = "/usr/bin/chromium"

// InstallHint is what a skipped test says.
const InstallHint = "install Chromium: apt-get install -y chromium"

// Chromium is one Chromium process (and its restarts).
type Chromium struct {
	dir   string // profiles and logs of every run; removed by Stop
	port  int    // remote debugging port, kept across restarts
	cmd   *exec.Cmd
	wsURL string
	runs  int
	flags []string // extra command-line flags of every run
}

// Require skips the test under -short (the quick subset has no browser)
// and when Chromium is missing, where under CI it fails it instead.
func Require(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("chromiumtest: -short runs no browser")
	}
	if _, err := os.Stat(Path); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("chromiumtest: %s missing under CI; %s", Path, InstallHint)
	}
	t.Skipf("chromiumtest: %s missing; %s", Path, InstallHint)
}

// Start starts Chromium for one test and returns its DevTools WebSocket URL
// and a stop function (also run at cleanup).
func Start(t testing.TB) (wsURL string, stop func()) {
	c := Launch(t)
	return c.WSURL(), c.Stop
}

// Launch starts Chromium for one test, on a free loopback port; it is
// stopped at cleanup. Tests that kill or restart it, or count its tabs,
// want their own. flags are added to its command line.
func Launch(t testing.TB, flags ...string) *Chromium {
	t.Helper()
	Require(t)
	c, err := New(flags...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

var shared struct {
	sync.Mutex
	c   *Chromium
	err error
}

// Shared returns one Chromium for the whole test binary, started on first
// use, for tests that only read through their own tab. The package's
// TestMain calls StopShared after the tests.
func Shared(t testing.TB) *Chromium {
	t.Helper()
	Require(t)
	shared.Lock()
	defer shared.Unlock()
	if shared.c == nil && shared.err == nil {
		shared.c, shared.err = New()
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c
}

// StopShared stops the Chromium Shared started, if any.
func StopShared() {
	shared.Lock()
	defer shared.Unlock()
	if shared.c != nil {
		shared.c.Stop()
		shared.c = nil
	}
}

// SmallPageHeap is a flag that caps each renderer's JavaScript heap at
// 16 MiB, so a page that allocates without end crashes its tab in a moment
// (as it would at the real limit, after gigabytes).
const SmallPageHeap = "--js-flags=--max-old-space-size=16"

// New starts Chromium on a free loopback port with a fresh profile and
// flags added to its command line. The caller must Stop it.
func New(flags ...string) (*Chromium, error) {
	dir, err := os.MkdirTemp("", "chromiumtest-")
	if err != nil {
		return nil, fmt.Errorf("chromiumtest: %w", err)
	}
	c := &Chromium{dir: dir, flags: flags}
	if err := c.start(); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// DownloadDir is where this Chromium would save a download: its HOME is a
// directory of its own (so no test writes into the real home), and
// Chromium's default download folder is $HOME/Downloads.
func (c *Chromium) DownloadDir() string { return filepath.Join(c.dir, "home", "Downloads") }

// Downloads lists the files in DownloadDir (finished or partial).
func (c *Chromium) Downloads() []string {
	entries, _ := os.ReadDir(c.DownloadDir())
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// WSURL is the browser's DevTools WebSocket URL for the current run.
func (c *Chromium) WSURL() string { return c.wsURL }

// HTTPURL is the remote debugging address as http://127.0.0.1:port. It stays
// the same across restarts.
func (c *Chromium) HTTPURL() string { return "http://127.0.0.1:" + strconv.Itoa(c.port) }

// Kill kills Chromium's whole process group at once, as a sidecar crash
// would, and reaps it.
func (c *Chromium) Kill() {
	if c.cmd == nil {
		return
	}
	pgid := c.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = c.cmd.Wait()
	c.cmd = nil
	// The helpers (renderers, network service) die a moment after the
	// browser; wait so nothing writes into a profile being removed.
	for range 250 {
		if len(group(pgid)) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Restart kills Chromium if it runs and starts it again on the same port
// with a fresh profile. It returns the new WebSocket URL (the browser id in
// its path changes).
func (c *Chromium) Restart() (string, error) {
	c.Kill()
	if err := c.start(); err != nil {
		return "", err
	}
	return c.wsURL, nil
}

// Stop kills Chromium and removes its profiles; it is safe to call twice.
func (c *Chromium) Stop() {
	c.Kill()
	_ = os.RemoveAll(c.dir)
}

// Target is one entry of the DevTools /json/list endpoint.
type Target struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	URL  string `json:"url"`
}

// listClient keeps no idle connections, so tests counting goroutines see
// none of its.
var listClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// Pages lists the open page targets (tabs).
func (c *Chromium) Pages() ([]Target, error) {
	res, err := listClient.Get(c.HTTPURL() + "/json/list")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var all []Target
	if err := json.NewDecoder(res.Body).Decode(&all); err != nil {
		return nil, err
	}
	var pages []Target
	for _, tg := range all {
		if tg.Type == "page" {
			pages = append(pages, tg)
		}
	}
	return pages, nil
}

func (c *Chromium) start() error {
	c.runs++
	profile := filepath.Join(c.dir, "profile-"+strconv.Itoa(c.runs))
	logPath := filepath.Join(c.dir, "stderr-"+strconv.Itoa(c.runs)+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("chromiumtest: %w", err)
	}
	defer logFile.Close()
	args := []string{
		"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--mute-audio",
		"--user-data-dir=" + profile,
		"--remote-debugging-address=127.0.0.1",
		"--remote-debugging-port=" + strconv.Itoa(c.port),
	}
	args = append(args, c.flags...)
	cmd := exec.Command(Path, append(args, "about:blank")...)
	// A HOME of its own: Chromium saves downloads to $HOME/Downloads.
	home := filepath.Join(c.dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("chromiumtest: %w", err)
	}
	cmd.Env = append(os.Environ(), "HOME="+home)
	// stderr goes to a file, not a pipe, so no goroutine copies it and
	// goroutine counts in tests see none of ours.
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("chromiumtest: start %s: %w", Path, err)
	}
	c.cmd = cmd
	ws, err := waitListening(logPath, 30*time.Second)
	if err != nil {
		c.Kill()
		log, _ := os.ReadFile(logPath)
		return fmt.Errorf("chromiumtest: %w\n%s", err, tail(string(log), 2000))
	}
	u, err := url.Parse(ws)
	if err != nil {
		c.Kill()
		return fmt.Errorf("chromiumtest: bad DevTools URL %q: %w", ws, err)
	}
	_, port, _ := net.SplitHostPort(u.Host)
	c.port, _ = strconv.Atoi(port)
	c.wsURL = ws
	return nil
}

// waitListening reads the log until Chromium prints its DevTools URL.
func waitListening(logPath string, limit time.Duration) (string, error) {
	const marker = "DevTools listening on "
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if f, err := os.Open(logPath); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if i := strings.Index(sc.Text(), marker); i >= 0 {
					f.Close()
					return strings.TrimSpace(sc.Text()[i+len(marker):]), nil
				}
			}
			f.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "", errors.New("no \"DevTools listening on\" line within " + limit.String())
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("...%s", s[len(s)-n:])
}

// group lists the live (not zombie) processes of a process group.
func group(pgid int) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		stat, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	return pids
}
