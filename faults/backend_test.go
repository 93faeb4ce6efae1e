package faults

import (
	"net/http"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"mangabookmark/internal/proctest"
)

// backend is one running `mangabookmark serve` process.
type backend struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	addr string
	url  string
	logs *syncBuffer
	done chan struct{}
}

// serve starts `mangabookmark serve` with the deployment's environment plus
// extra and waits for /healthz to answer 200.
func (d *deployment) serve(name string, extra map[string]string) *backend {
	d.t.Helper()
	addr := proctest.FreeAddr(d.t)
	if extra == nil {
		extra = map[string]string{}
	}
	if _, ok := extra["LISTEN_ADDR"]; !ok {
		extra["LISTEN_ADDR"] = addr
	} else {
		addr = extra["LISTEN_ADDR"]
	}
	b := &backend{t: d.t, name: name, addr: addr, url: "http://" + addr, logs: &syncBuffer{}, done: make(chan struct{})}
	b.cmd = exec.Command(proctest.Binary(d.t), "serve")
	b.cmd.Env = proctest.CleanEnv(d.envList(extra)...)
	b.cmd.Stderr = b.logs
	b.cmd.Stdout = b.logs
	if err := b.cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	go func() {
		_ = b.cmd.Wait()
		close(b.done)
	}()
	d.mu.Lock()
	d.backends = append(d.backends, b)
	d.mu.Unlock()
	d.t.Cleanup(func() {
		b.kill()
		if d.t.Failed() {
			d.t.Logf("--- log of backend %s (tail) ---\n%s", b.name, tail(b.logs.String(), 12000))
		}
	})
	b.waitHealth(200, 30*time.Second)
	return b
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// status is the HTTP status of GET path, or 0 when the process does not
// answer.
func (b *backend) status(path string) int {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(b.url + path)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (b *backend) waitHealth(want int, within time.Duration) {
	b.t.Helper()
	last := 0
	ok := eventually(within, 200*time.Millisecond, func() bool {
		select {
		case <-b.done:
			return true
		default:
		}
		last = b.status("/healthz")
		return last == want
	})
	select {
	case <-b.done:
		b.t.Fatalf("backend %s exited\n%s", b.name, tail(b.logs.String(), 8000))
	default:
	}
	if !ok {
		b.t.Fatalf("backend %s: /healthz %d, want %d within %v", b.name, last, want, within)
	}
}

// alive reports whether the process is still running.
func (b *backend) alive() bool {
	select {
	case <-b.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL and waits for the process to end.
func (b *backend) kill() {
	if b.cmd.Process == nil {
		return
	}
	_ = b.cmd.Process.Signal(syscall.SIGKILL)
	<-b.done
}

// rssKB is the process's resident set size (VmRSS) in KiB; 0 when the
// process is gone.
func (b *backend) rssKB() int64 {
	rss, _ := proctest.Memory(b.cmd.Process.Pid)
	return rss
}

// eventually polls cond every step until it holds or within passes.
func eventually(within, step time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(step)
	}
}
