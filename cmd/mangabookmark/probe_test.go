package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/internal/proctest"
)

// probeEnv runs the real binary's `probe` against one simulator.
type probeEnv struct {
	sim *sitesim.Sim
	env []string
}

func newProbeEnv(t *testing.T, browserURL string) *probeEnv {
	t.Helper()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 8})
	// No database is reachable at DATABASE_URL: probe must not need one.
	env := []string{"SITE_ORIGINS=" + sim.OriginsValue(), "DATABASE_URL=postgres://probe@127.0.0.1:1/none?sslmode=disable"}
	if browserURL != "" {
		env = append(env, "BROWSER_WS_URL="+browserURL)
	}
	return &probeEnv{sim: sim, env: env}
}

// probe runs `mangabookmark probe args...` and returns stdout, stderr and
// the exit status.
func (p *probeEnv) probe(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, proctest.Binary(t), append([]string{"probe"}, args...)...)
	cmd.Env = proctest.CleanEnv(p.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), stderr.String(), 0
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitCode()
	}
	t.Fatalf("probe %v: %v", args, err)
	return "", "", -1
}

func (p *probeEnv) probeJSON(t *testing.T, args ...string) (probeReport, int) {
	t.Helper()
	out, errOut, code := p.probe(t, append([]string{"--json"}, args...)...)
	var rep probeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("probe %v: exit %d, output is not the JSON report: %v\n%s\n%s", args, code, err, out, errOut)
	}
	return rep, code
}

// TestProbeReadsEverySite: every Site of the simulator, the three browser
// Sites through a real Chromium, is probed from a Series URL as a Reader
// would paste it; the report names the canonical Series and the Latest
// Chapter the simulator shows, and the exit status is 0.
func TestProbeReadsEverySite(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	p := newProbeEnv(t, chrome.HTTPURL())
	for _, site := range sitesim.SiteNames {
		id := p.sim.SeriesID(site, 2)
		rep, code := p.probeJSON(t, p.sim.SeriesURL(site, id))
		if code != 0 || rep.Outcome != "ok" {
			t.Errorf("%s: exit %d outcome %q error %q, want 0 ok", site, code, rep.Outcome, rep.Error)
			continue
		}
		wantRoute := "plain"
		if site == sitesim.Kagane || site == sitesim.Comix || site == sitesim.Natomanga {
			wantRoute = "browser"
		}
		if rep.Site != site || !strings.EqualFold(rep.SeriesID, id) || rep.Route != wantRoute {
			t.Errorf("%s: site %q series %q route %q, want %s %s %s", site, rep.Site, rep.SeriesID, rep.Route, site, id, wantRoute)
		}
		if rep.Title != p.sim.Title(site, id) {
			t.Errorf("%s: title %q, simulator shows %q", site, rep.Title, p.sim.Title(site, id))
		}
		if rep.Latest == nil || rep.Latest.Number != p.sim.Latest(site, id) || rep.Latest.URL == "" {
			t.Errorf("%s: latest %+v, simulator shows %q", site, rep.Latest, p.sim.Latest(site, id))
		}
		fu, err := url.Parse(rep.FinalURL)
		if err != nil || "http://"+fu.Host != p.sim.Origin(site) {
			t.Errorf("%s: final URL %q is not on the simulator's %s", site, rep.FinalURL, p.sim.Origin(site))
		}
		if len(rep.Fetches) == 0 || rep.Fetches[0].Status != http.StatusOK {
			t.Errorf("%s: fetches %+v", site, rep.Fetches)
		}
		if rep.Rows < 0 || rep.Skipped == nil {
			t.Errorf("%s: rows %d skipped %v", site, rep.Rows, rep.Skipped)
		}
	}

	// The text form prints the same fields, one per line.
	id := p.sim.SeriesID(sitesim.MangaPill, 3)
	out, _, code := p.probe(t, p.sim.SeriesURL(sitesim.MangaPill, id))
	if code != 0 {
		t.Fatalf("text probe exit %d\n%s", code, out)
	}
	for _, want := range []string{"site       mangapill", "series_id  " + id, "route      plain", "outcome    ok",
		"title      " + p.sim.Title(sitesim.MangaPill, id), "latest     " + p.sim.Latest(sitesim.MangaPill, id) + "  ",
		"rows       ", "final_url  " + p.sim.Origin(sitesim.MangaPill), "fetch 1    ", "total      "} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestProbeExitStatus: any outcome but ok exits 1 with the report still
// printed; usage mistakes exit 2 with a message saying what to fix.
func TestProbeExitStatus(t *testing.T) {
	t.Parallel()
	p := newProbeEnv(t, "")
	site := sitesim.WeebCentral
	gone, broken := p.sim.SeriesID(site, 1), p.sim.SeriesID(site, 2)
	p.sim.SetSeries(site, gone, sitesim.Behavior{Mode: sitesim.Gone})
	p.sim.SetSeries(site, broken, sitesim.Behavior{Mode: sitesim.LayoutChanged})
	for id, want := range map[string]string{gone: "not_found", broken: "no_chapter"} {
		rep, code := p.probeJSON(t, p.sim.SeriesURL(site, id))
		if code != 1 || rep.Outcome != want || rep.Error == "" || rep.Latest != nil {
			t.Errorf("%s: exit %d outcome %q error %q latest %v, want 1 %s with its error", id, code, rep.Outcome, rep.Error, rep.Latest, want)
		}
	}

	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.html"), []byte("earlier capture"), 0o644); err != nil {
		t.Fatal(err)
	}
	okURL := p.sim.SeriesURL(site, p.sim.SeriesID(site, 3))
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"not a url"}, "only http and https"},
		{[]string{"ftp://mangadex.org/title/x"}, "only http and https"},
		{[]string{"https://example.org/series/1"}, "not one of the Sites"},
		{[]string{"https://mangapill.com/"}, "cannot be probed: a Series link looks like /manga/{id}"},
		{[]string{p.sim.SeriesURL(sitesim.Comix, p.sim.SeriesID(sitesim.Comix, 0))}, "set BROWSER_WS_URL"},
		{[]string{"--save", full, okURL}, "not empty"},
		{[]string{"--bogus", okURL}, "unknown flag"},
		{[]string{"--timeout", "0s", okURL}, "--timeout must be positive"},
		{[]string{"--timeout", "soon", okURL}, "--timeout"},
		{[]string{}, "expected \"<url>\""},
	} {
		out, errOut, code := p.probe(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.say) {
			t.Errorf("probe %q: exit %d stderr %q, want 2 saying %q (stdout %q)", tc.args, code, errOut, tc.say, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(full, "keep.html")); string(b) != "earlier capture" {
		t.Error("a refused --save touched the directory")
	}
}

// TestProbeSaveRoundTrip: what --save writes, served back to the Site's
// adapter as a fixture, reads to the same result the probe printed.
func TestProbeSaveRoundTrip(t *testing.T) {
	t.Parallel()
	chrome := chromiumtest.Launch(t)
	p := newProbeEnv(t, chrome.HTTPURL())
	reg, err := registry.FromEnv(p.sim.OriginsValue())
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range sitesim.SiteNames {
		dir := filepath.Join(t.TempDir(), site)
		rep, code := p.probeJSON(t, "--save", dir, p.sim.SeriesURL(site, p.sim.SeriesID(site, 4)))
		if code != 0 {
			t.Errorf("%s: probe exit %d: %s", site, code, rep.Error)
			continue
		}
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if err != nil || !strings.Contains(string(readme), p.sim.SeriesURL(site, p.sim.SeriesID(site, 4))) ||
			!strings.Contains(string(readme), "Saved by `mangabookmark probe --save` at 20") {
			t.Errorf("%s: README.md %v does not record the URL and time:\n%s", site, err, readme)
		}
		for _, f := range rep.Fetches {
			if f.File == "" {
				t.Errorf("%s: fetch %s saved no file", site, f.URL)
			}
		}
		replay := loadReplay(t, dir)
		s := reg.Get(site)
		res := s.Adapter.Read(context.Background(), s, replay, rep.SeriesID)
		if res.Outcome != sites.OK || res.Facts.Latest == nil {
			t.Errorf("%s: replayed read %s (%v)", site, res.Outcome, res.Err)
			continue
		}
		got := report(sites.Ref{Site: site, SeriesID: rep.SeriesID, URL: rep.URL}, rep.Route, res, nil, 0)
		if got.Title != rep.Title || got.CoverURL != rep.CoverURL || !sameChapter(got.Latest, rep.Latest) ||
			got.Rows != rep.Rows || len(got.Skipped) != len(rep.Skipped) {
			t.Errorf("%s: replayed %+v %+v, probe printed %+v %+v", site, got, got.Latest, rep, rep.Latest)
		}
		if replay.served != len(rep.Fetches) {
			t.Errorf("%s: the replay served %d of %d saved responses", site, replay.served, len(rep.Fetches))
		}
	}
}

func sameChapter(a, b *probeChapter) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Number != b.Number || a.Title != b.Title || a.URL != b.URL || (a.ReleasedAt == nil) != (b.ReleasedAt == nil) {
		return false
	}
	return a.ReleasedAt == nil || a.ReleasedAt.Equal(*b.ReleasedAt)
}

// replay serves a --save directory as a route: each request gets the
// saved response for its page and data URL.
type replay struct {
	dir    string
	byReq  map[string]savedFile
	served int
}

func loadReplay(t *testing.T, dir string) *replay {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m []savedFile
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	r := &replay{dir: dir, byReq: map[string]savedFile{}}
	for _, f := range m {
		r.byReq[f.Page+"\n"+f.Data] = f
	}
	return r
}

func (r *replay) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	f, ok := r.byReq[req.Page+"\n"+req.Data]
	if !ok || f.File == "" {
		return nil, errors.New("replay: nothing saved for " + req.Target())
	}
	body, err := os.ReadFile(filepath.Join(r.dir, f.File))
	if err != nil {
		return nil, err
	}
	r.served++
	h := http.Header{}
	h.Set("Content-Type", f.ContentType)
	fu, _ := url.Parse(f.FinalURL)
	return &sites.Response{Status: f.Status, Header: h, Body: body, FinalURL: fu}, nil
}
