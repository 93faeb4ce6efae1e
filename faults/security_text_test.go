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

	"mangabookmark/backend/safetext"
	"mangabookmark/backend/sitesim"
	"mangabookmark/client"
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

// bidiOverride returns the text around the first bidirectional
// embedding, override, isolate or mark (U+202A to U+202E, U+2066 to
// U+2069, U+200E, U+200F, U+061C) in s, raw or as a JSON escape: in a
// terminal or a page they reorder what is shown, so "exe.pdf" can show as
// "fdp.exe".
func bidiOverride(s string) (string, bool) {
	for i, r := range s {
		if safetext.IsBidiControl(r) {
			return s[max(0, i-24):min(len(s), i+24)], true
		}
	}
	low := strings.ToLower(s)
	for _, esc := range []string{`\u202a`, `\u202b`, `\u202c`, `\u202d`, `\u202e`, `\u2066`, `\u2067`, `\u2068`, `\u2069`, `\u200e`, `\u200f`, `\u061c`} {
		if i := strings.Index(low, esc); i >= 0 {
			return s[max(0, i-24):min(len(s), i+24)], true
		}
	}
	return "", false
}

// coverRefused reports whether a backend's JSON log says a cover of the
// Series was not stored: the cover healer's last word on a refused fetch.
func coverRefused(logs, seriesID string) bool {
	for _, line := range strings.Split(logs, "\n") {
		var rec struct {
			Msg      string `json:"msg"`
			SeriesID string `json:"series_id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "cover not stored" && rec.SeriesID == seriesID {
			return true
		}
	}
	return false
}

// TestSecurityText is the text-hygiene and cover scenario of issue 13
// (items 1 and 6) and issue 23, end to end: the real binary reads simulator
// pages whose titles carry terminal escapes (raw bytes, HTML entities,
// 4 MiB) or bidi overrides (raw and as entities), and whose covers point
// at another local service or answer a page or a script labelled
// image/png; the real mbctl prints the worklist, the Lanes (with a hostile
// pause reason) and JSON; `token list` prints a hostile Discord name. No
// output may hold an escape or a bidi override, no stored text a control
// character or a bidi override, no cover is stored from the other service
// or from bytes that are not an image, and the other service is never
// fetched. MangaPill's origin is a local front that answers the lying
// covers and hands every other path to the simulator.
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
	// Covers that say image/png and are not images, on the Site's own
	// origin (where a cover may be fetched): a page and a script.
	lies := map[string]string{
		"/lie/page.png":   "<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>",
		"/lie/script.png": "fetch('/api/v1/tokens',{credentials:'include'}).then(r=>r.text()).then(alert)\n",
	}
	var lieHits sync.Map // path -> *atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := lies[r.URL.Path]; ok {
			n, _ := lieHits.LoadOrStore(r.URL.Path, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte(body))
			return
		}
		d.sim.Handler(site).ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	origins := strings.Replace(d.sim.OriginsValue(), site+"="+d.sim.Origin(site), site+"="+front.URL, 1)
	if !strings.Contains(origins, front.URL) {
		t.Fatalf("SITE_ORIGINS %q does not name the front", origins)
	}
	ids := d.seed(site, 5)
	_, frontPort, _ := net.SplitHostPort(strings.TrimPrefix(front.URL, "http://"))
	_, secretPort, _ := net.SplitHostPort(strings.TrimPrefix(secret.URL, "http://"))
	// Every bidi embedding, override, isolate and mark, raw and as
	// entities; the title stored is the text around them.
	const bidiClean = "Invoice fdp.exe bidi lrm"
	titles := []string{
		"\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m",                                                                               // raw bytes
		"&#27;]52;c;cHduZWQ=&#7;Clip &#x1b;]8;;http://evil.example&#x1b;\\link &#x9b;",                                           // entities
		strings.Repeat("Long title ", (1<<20)/11),                                                                                // a 1 MiB <h1> (the page repeats the title four times: 4 MiB of 5)
		"Invoice \u202efdp.exe\u202c \u2066bidi\u2069 \u202a\u202b\u202dlrm\u2067\u2068\u200e\u200f\u061c raw",                   // bidi, raw
		"Invoice &#x202E;fdp.exe&#x202C; &#x2066;bidi&#x2069; &#8234;&#8235;&#8237;lrm&#8295;&#8296;&#x200E;&#x200F;&#x61C; ent", // bidi, entities
	}
	wantTitle := map[int]string{3: bidiClean + " raw", 4: bidiClean + " ent"}
	covers := []string{
		secret.URL + "/secret", // the override's host, another port
		"http://localhost:" + frontPort + "/covers/" + ids[1] + ".jpeg", // another name for the override
		front.URL + "/covers/" + ids[2] + ".jpeg",                       // the simulator's own cover, on the override: must be stored (the check can fail)
		front.URL + "/lie/page.png",                                     // a page labelled image/png
		front.URL + "/lie/script.png",                                   // a script labelled image/png
	}
	for i, id := range ids {
		d.sim.SetSeries(site, id, sitesim.Behavior{TitleHTML: titles[i], CoverURL: covers[i]})
	}
	tried := len(titles) + 4 // the titles, and every cover but the simulator's own

	b := d.serve("text", map[string]string{"SITE_ORIGINS": origins})
	// Five first reads one Gap (10 s) apart; a loaded machine takes longer.
	if !eventually(3*time.Minute, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM series WHERE site = $1 AND latest_number IS NOT NULL`, site) == len(ids)
	}) {
		t.Fatalf("the hostile Series were not all read within 3 minutes")
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
		if near, bad := bidiOverride(title); bad {
			t.Errorf("title %d stored with a bidi override near %q", i, near)
		}
		if want, ok := wantTitle[i]; ok && title != want {
			t.Errorf("title %d stored as %q, want %q (the overrides dropped, the text kept)", i, title, want)
		}
	}

	// Make four of them failing (the title stays), pause the Lane with a
	// hostile reason and mint a token for a Reader with a hostile name.
	failing := []string{ids[0], ids[1], ids[3], ids[4]}
	oc := d.client(d.owner, b)
	for _, id := range failing {
		d.sim.SetSeries(site, id, sitesim.Behavior{Mode: sitesim.ServerError})
		if _, err := oc.Force(ctx, site, id); err != nil {
			t.Fatal(err)
		}
	}
	// Four Forced Polls one Gap apart.
	if !eventually(2*time.Minute, 250*time.Millisecond, func() bool {
		return d.count(`SELECT count(*) FROM poll_failures WHERE site = $1`, site) == len(failing)
	}) {
		t.Fatalf("the forced Series did not turn failing within 2 minutes")
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
		if near, bad := bidiOverride(out.String()); bad {
			t.Errorf("mbctl %v printed a bidi override near %q", args, near)
		}
		if args[len(args)-1] == "failing" && (!strings.Contains(out.String(), "fdp.exe") || !strings.Contains(out.String(), "lrm ent")) {
			t.Errorf("mbctl %v lost the bidi titles' text (it must show, overrides dropped):\n%s", args, out.String())
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
	if err != nil || len(fr.Failing) != len(failing) {
		t.Fatalf("failing: %+v %v", fr, err)
	}
	for _, f := range fr.Failing {
		if near, bad := bidiOverride(f.Title); bad {
			t.Errorf("the API's failing list gives %s a title with a bidi override near %q", f.SeriesID, near)
		}
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
	// The lying covers were fetched from the override's origin and their
	// bytes refused: the healer's refusal is logged after the fetch, so a
	// refusal seen with the fetch counted was the bytes' own.
	for i, id := range ids[3:] {
		path := strings.TrimPrefix(covers[3+i], front.URL)
		if !eventually(30*time.Second, 250*time.Millisecond, func() bool { return coverRefused(b.logs.String(), id) }) {
			t.Errorf("cover %s of %s: no refusal logged within 30 s", path, id)
		}
		hits := int64(0)
		if n, ok := lieHits.Load(path); ok {
			hits = n.(*atomic.Int64).Load()
		}
		if hits == 0 {
			t.Errorf("cover %s of %s was never fetched: its refusal proves nothing about its bytes", path, id)
		}
	}
	if n := d.count(`SELECT count(*) FROM covers WHERE site = $1 AND series_id = ANY($2)`, site, ids[3:]); n != 0 {
		t.Errorf("%d covers stored from a page or a script labelled image/png", n)
	}
	t.Logf("hostile inputs tried: %d", tried)
}
