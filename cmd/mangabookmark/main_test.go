package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mangabookmark/backend/store/dbtest"
	"mangabookmark/internal/proctest"
)

func TestServeAnswersHealthzAndShutsDownGracefully(t *testing.T) {
	dsn := dbtest.NewURL(t)
	addr := proctest.FreeAddr(t)
	cmd := exec.Command(proctest.Binary(t), "serve")
	cmd.Env = proctest.CleanEnv("DATABASE_URL="+dsn, "LISTEN_ADDR="+addr, "LATEST_CHAPTER_POLL_ENABLED=false",
		"TOKEN_KEY=0123456789abcdef0123456789abcdef")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()

	var resp *http.Response
	var err error
	for i := 0; i < 100; i++ {
		resp, err = http.Get("http://" + addr + "/healthz")
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("healthz never answered: %v\n%s", err, stderr.String())
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz %d", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop on SIGTERM\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Fatalf("no orderly stop in log:\n%s", stderr.String())
	}
}

func TestStartupErrorsAreClear(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		want string
		code int
	}{
		{"removed knob", []string{"LATEST_CHAPTER_POLL_STAGGER=20s"}, "LATEST_CHAPTER_POLL_STAGGER", 2},
		{"bad listen", []string{"LISTEN_ADDR=nonsense"}, "LISTEN_ADDR", 2},
		{"bad database url", []string{"DATABASE_URL=postgres://u:pw@h:port/db"}, "DATABASE_URL", 2},
		{"unreachable database", []string{"DATABASE_URL=postgres://postgres@127.0.0.1:1/x?connect_timeout=2"}, "cannot reach PostgreSQL", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, proctest.Binary(t), "serve")
			cmd.Env = proctest.CleanEnv(tc.env...)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("want exit %d, got %v\n%s", tc.code, err, out)
			}
			if ee.ExitCode() != tc.code {
				t.Fatalf("exit %d, want %d\n%s", ee.ExitCode(), tc.code, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Fatalf("output lacks %q:\n%s", tc.want, out)
			}
			if strings.Contains(string(out), "goroutine ") || strings.Contains(string(out), "panic") {
				t.Fatalf("stack trace in output:\n%s", out)
			}
			if strings.Contains(string(out), ":pw@") {
				t.Fatalf("password echoed:\n%s", out)
			}
		})
	}
}

func TestDemoServesSeededLibrary(t *testing.T) {
	dsn := dbtest.NewURL(t)
	addr := proctest.FreeAddr(t)
	simAddr := "127.0.0.1:0" // six free ports, whatever else runs beside the test
	tokenFile := filepath.Join(t.TempDir(), "owner-token")
	linkFile := filepath.Join(t.TempDir(), "login-link")
	feedFile := filepath.Join(t.TempDir(), "feed-url")
	cmd := exec.Command(proctest.Binary(t), "demo", "--series", "5", "--sim-listen", simAddr, "--token-file", tokenFile, "--login-link-file", linkFile, "--feed-url-file", feedFile)
	cmd.Env = proctest.CleanEnv("DATABASE_URL="+dsn, "LISTEN_ADDR="+addr, "TOKEN_KEY=0123456789abcdef0123456789abcdef")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	var token []byte
	for i := 0; i < 150; i++ {
		token, _ = os.ReadFile(tokenFile)
		if len(token) > 0 {
			if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(token) == 0 {
		t.Fatalf("no owner token written\n%s", stderr.String())
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/admin/lanes", nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("lanes: %v\n%s", err, stderr.String())
	}
	defer resp.Body.Close()
	var body struct {
		Lanes []struct {
			Site   string `json:"site"`
			Series int    `json:"series"`
		} `json:"lanes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
		t.Fatalf("lanes: %d %v", resp.StatusCode, err)
	}
	if len(body.Lanes) != 6 {
		t.Fatalf("lanes: %+v", body.Lanes)
	}
	for _, l := range body.Lanes {
		if l.Series != 5 {
			t.Errorf("%s has %d Series, want 5", l.Site, l.Series)
		}
	}
	demoLoginLink(t, addr, linkFile)
	demoFeed(t, addr, feedFile, &stderr)
}

// demoFeed reads the Owner's feed URL the demo wrote and waits for its
// first Chapter Event (the demo seeds a baseline of chapter 0, so a Lane's
// first good read is one). The feed token never reaches the log.
func demoFeed(t *testing.T, addr, feedFile string, stderr *lockedBuffer) {
	t.Helper()
	raw, err := os.ReadFile(feedFile)
	feedURL := strings.TrimSpace(string(raw))
	if err != nil || !strings.HasPrefix(feedURL, "http://"+addr+"/feeds/mbf_") {
		t.Fatalf("feed URL file: %q %v", raw, err)
	}
	deadline := time.Now().Add(2 * time.Minute) // a few plain reads at the demo's 10 s gap
	for {
		resp, err := http.Get(feedURL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("feed: %d", resp.StatusCode)
		}
		if strings.Contains(string(body), "<entry>") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Chapter Event in the demo's feed after 2 minutes:\n%s", body)
		}
		time.Sleep(time.Second)
	}
	token := strings.TrimSuffix(feedURL[strings.LastIndex(feedURL, "/")+1:], ".atom")
	if strings.Contains(stderr.String(), token) {
		t.Fatal("the feed token reached the demo's log")
	}
}

// demoLoginLink follows the demo's one-time login link: it starts the
// Owner's session (the status page then answers), and works only once.
func demoLoginLink(t *testing.T, addr, linkFile string) {
	t.Helper()
	link, err := os.ReadFile(linkFile)
	if err != nil || !strings.HasPrefix(string(link), "/login/once/") {
		t.Fatalf("login link file: %q %v", link, err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get("http://" + addr + strings.TrimSpace(string(link)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = c.Get("http://" + addr + "/admin")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.Count(string(page), `class="lane card" data-site=`) != 6 {
		t.Fatalf("/admin after the login link: %d", resp.StatusCode)
	}
	resp, err = http.Get("http://" + addr + strings.TrimSpace(string(link)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("second use of the login link: %d", resp.StatusCode)
	}
}

// lockedBuffer is a child process's output, written by os/exec's copying
// goroutine while the test reads it: both under one lock (the race run
// caught a bare bytes.Buffer).
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
