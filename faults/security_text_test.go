package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"mangabookmark/backend/api/client"
	"mangabookmark/backend/sitesim"
	"mangabookmark/internal/proctest"
)

var (
	mbctlOnce sync.Once
	mbctlPath string
	mbctlErr  error
)

// mbctlBinary builds ./cmd/mbctl once per test process.
func mbctlBinary(t *testing.T) string {
	t.Helper()
	mbctlOnce.Do(func() {
		root, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			mbctlErr = err
			return
		}
		dir, err := os.MkdirTemp("", "mbctlbin")
		if err != nil {
			mbctlErr = err
			return
		}
		mbctlPath = filepath.Join(dir, "mbctl")
		cmd := exec.Command("go", "build", "-o", mbctlPath, "./cmd/mbctl")
		cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
		if out, err := cmd.CombinedOutput(); err != nil {
			mbctlErr = &exec.ExitError{Stderr: out}
		}
	})
	if mbctlErr != nil {
		t.Fatalf("build mbctl: %v", mbctlErr)
	}
	return mbctlPath
}

// terminalUnsafe returns the text around the first byte a terminal could
// act on: a C0 control other than newline, DEL, a C1 control, or a byte
// that is not UTF-8 (a lone 0x9b is an 8-bit CSI to some terminals).
func terminalUnsafe(s string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) {
			return s[max(0, i-24):min(len(s), i+24)], true
		}
	}
	return "", false
}

// TestSecurityText is the text-hygiene and cover scenario of issue 13
// (items 1 and 6), end to end: the real binary reads simulator pages whose
// titles carry terminal escapes (raw bytes, HTML entities, 4 MiB), and whose
// covers point at another local service; the real mbctl prints the
// worklist, the Lanes (with a hostile pause reason) and JSON; `token list`
// prints a hostile Discord name. No output may hold an escape, no stored
// text a control character, and the other service is never fetched.
func TestSecurityText(t *testing.T) {
	needSuite(t)
	t.Parallel()
	var secretHits atomic.Int64
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n secret"))
	}))
	t.Cleanup(secret.Close)

	d := newDeployment(t, "")
	site := sitesim.MangaPill
	ids := d.seed(site, 3)
	simHost := strings.TrimPrefix(d.sim.Origin(site), "http://")
	_, simPort, _ := net.SplitHostPort(simHost)
	_, secretPort, _ := net.SplitHostPort(strings.TrimPrefix(secret.URL, "http://"))
	titles := []string{
		"\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m",                                     // raw bytes
		"&#27;]52;c;cHduZWQ=&#7;Clip &#x1b;]8;;http://evil.example&#x1b;\\link &#x9b;", // entities
		strings.Repeat("Long title ", (1<<20)/11),                                      // a 1 MiB <h1> (the page repeats the title four times: 4 MiB of 5)
	}
	covers := []string{
		secret.URL + "/secret", // the override's host, another port
		"http://localhost:" + simPort + "/covers/" + ids[1] + ".jpeg", // another name for the override
		"", // the simulator's own cover: must be stored (the check can fail)
	}
	for i, id := range ids {
		d.sim.SetSeries(site, id, sitesim.Behavior{TitleHTML: titles[i], CoverURL: covers[i]})
	}
	tried := len(titles) + 2

	b := d.serve("text", nil)
	if !eventually(90*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_number IS NOT NULL`, site) == len(ids)
	}) {
		t.Fatalf("the hostile Series were not all read within 90 s")
	}
	ctx := context.Background()
	for i, id := range ids {
		var title string
		if err := d.pool.QueryRow(ctx, `SELECT title FROM series WHERE site = $1 AND series_id = $2`, site, id).Scan(&title); err != nil {
			t.Fatal(err)
		}
		if near, bad := terminalUnsafe(title); bad || title == "" || utf8.RuneCountInString(title) > 300 {
			t.Errorf("title %d stored as %d characters, unsafe %v near %q", i, utf8.RuneCountInString(title), bad, near)
		}
	}

	// Make two of them failing (the title stays), pause the Lane with a
	// hostile reason and mint a token for a Reader with a hostile name.
	oc := d.client(d.owner, b)
	for _, id := range ids[:2] {
		d.sim.SetSeries(site, id, sitesim.Behavior{Mode: sitesim.ServerError})
		if _, err := oc.Force(ctx, site, id); err != nil {
			t.Fatal(err)
		}
	}
	if !eventually(60*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM poll_failures WHERE site = $1`, site) == 2
	}) {
		t.Fatalf("the forced Series did not turn failing within 60 s")
	}
	reason := "moving\x1b]0;pwned\x07\u009b2J"
	if _, err := oc.Pause(ctx, site, time.Hour, reason); err != nil {
		t.Fatal(err)
	}
	d.mintWith(nil, "--reader", "600000000000000006", "--reader-name", "Eve\x1b]0;pwned\x07\u009b31m", "--name", "laptop\x1b[2J")
	tried += 3

	env := proctest.CleanEnv("MBCTL_SERVER="+b.url, "MBCTL_TOKEN="+d.owner, "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	for _, args := range [][]string{{"failing"}, {"--json", "failing"}, {"lanes"}, {"--json", "lanes"}} {
		cmd := exec.Command(mbctlBinary(t), args...)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("mbctl %v: %v\n%s", args, err, errb.String())
		}
		if near, bad := terminalUnsafe(out.String()); bad {
			t.Errorf("mbctl %v printed a control character near %q", args, near)
		}
		if args[0] == "--json" && !json.Valid(out.Bytes()) {
			t.Errorf("mbctl %v printed invalid JSON", args)
		}
		if !strings.Contains(out.String(), "pwned") {
			t.Errorf("mbctl %v lost the hostile text (it must show, inert):\n%s", args, out.String())
		}
	}
	list, _ := d.run(nil, "token", "list")
	if near, bad := terminalUnsafe(list); bad || !strings.Contains(list, "Eve]0;pwned") {
		t.Errorf("token list printed a control character near %q (or lost the name):\n%s", near, list)
	}
	fr, err := oc.Failing(ctx, client.FailingFilter{Site: site})
	if err != nil || len(fr.Failing) != 2 {
		t.Fatalf("failing: %+v %v", fr, err)
	}

	// Covers: only the simulator's own cover is stored; the other local
	// service is never reached.
	if !eventually(30*time.Second, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM covers WHERE site = $1 AND series_id = $2`, site, ids[2]) == 1
	}) {
		t.Errorf("the simulator's own cover was never stored: the cover check proves nothing")
	}
	if n := d.count(`SELECT count(*) FROM covers WHERE site = $1 AND series_id = ANY($2)`, site, ids[:2]); n != 0 {
		t.Errorf("%d covers stored from outside the override's origin", n)
	}
	if n := secretHits.Load(); n != 0 {
		t.Errorf("the other local service (port %s) was fetched %d times", secretPort, n)
	}
	t.Logf("hostile inputs tried: %d", tried)
}
