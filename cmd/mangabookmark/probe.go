package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"mangabookmark/backend/safetext"
	"mangabookmark/backend/sites"
)

// ProbeCmd reads one Series the way its Lane would and prints what the
// read found, writing nothing to the database.
type ProbeCmd struct {
	URL     string        `arg:"" help:"A Series (or chapter) URL of one of the six Sites; with --listing, a Site's name."`
	Listing bool          `help:"Read page 1 of the Site's \"latest updates\" listing instead of a Series, and print its lines and field diff."`
	Save    string        `help:"Write every raw response the read used into DIR (new or empty), named so each can become a fixture, with a README.md and manifest.json." placeholder:"DIR"`
	JSON    bool          `help:"Print the result as JSON."`
	Timeout time.Duration `help:"Bound on the whole read, as a Lane's read is bounded." default:"4m"`

	out io.Writer // stdout when nil (tests)
}

// usageError is a command-line mistake the user can fix: the process exits
// with status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// probeReport is what probe prints (and --json encodes).
type probeReport struct {
	Site     string         `json:"site"`
	SeriesID string         `json:"series_id"`
	URL      string         `json:"url"`
	Route    string         `json:"route"`
	Outcome  string         `json:"outcome"`
	Status   int            `json:"status,omitempty"`
	Error    string         `json:"error,omitempty"`
	Title    string         `json:"title"`
	CoverURL string         `json:"cover_url,omitempty"`
	Latest   *probeChapter  `json:"latest"`
	Rows     int            `json:"rows"`
	Skipped  map[string]int `json:"skipped"`
	FinalURL string         `json:"final_url"`
	Fetches  []probeFetch   `json:"fetches"`
	TotalMS  int64          `json:"total_ms"`
	Saved    string         `json:"saved,omitempty"`
}

// probeChapter is the Latest Chapter as the read found it.
type probeChapter struct {
	Number     string     `json:"number"`
	Title      string     `json:"title"`
	URL        string     `json:"url"`
	ReleasedAt *time.Time `json:"released_at,omitempty"`
}

// probeFetch is one request the read made through the route.
type probeFetch struct {
	URL      string `json:"url"`
	Status   int    `json:"status,omitempty"`
	FinalURL string `json:"final_url,omitempty"`
	Error    string `json:"error,omitempty"`
	MS       int64  `json:"ms"`
	File     string `json:"file,omitempty"`
	// Found and Missed are the shape diff: the fields the adapter's
	// fixtures have that this answer carries, and those it lacks.
	Found  []string `json:"found,omitempty"`
	Missed []string `json:"missed,omitempty"`
}

// Run canonicalises the URL, reads the Series through its Site's route and
// adapter (the constructors `serve` wires the Lanes with), prints the
// report and, with --save, writes the raw responses. An outcome other than
// ok is an error (exit 1); a bad URL, an unknown Site or a missing sidecar
// for a browser Site is a usage error (exit 2).
func (c *ProbeCmd) Run(ctx context.Context, env *Env) error {
	if c.Timeout <= 0 {
		return usagef("probe: --timeout must be positive, not %s", c.Timeout)
	}
	cfg, err := env.Config()
	if err != nil {
		return err
	}
	reg, err := newRegistry(cfg)
	if err != nil {
		return err
	}
	var ref sites.Ref
	site := reg.Get(c.URL)
	switch {
	case c.Listing && site == nil:
		return usagef("probe: --listing takes a Site's name (%s), not %q", strings.Join(reg.Names(), ", "), visible(c.URL))
	case c.Listing && c.Save != "":
		return usagef("probe: --save is for a Series read; a listing probe prints what it read")
	case !c.Listing:
		ref, err = reg.Canonicalize(c.URL)
		if err != nil {
			return usagef("probe: that URL cannot be probed: %s", sites.URLReason(err))
		}
		site = reg.Get(ref.Site)
	}
	plain, err := newPlainRoute()
	if err != nil {
		return err
	}
	route, routeName := plain, "plain"
	if site.Browser {
		bro, err := newBrowserRoute(cfg, env.Log)
		if err != nil {
			return err
		}
		if bro == nil {
			return usagef("probe: %s is read through the browser sidecar: set BROWSER_WS_URL (without it the Lanes skip %s too)", site.Name, site.Name)
		}
		defer bro.Close()
		route, routeName = bro, "browser"
	}

	if c.Listing {
		return c.runListing(ctx, route, routeName, site)
	}
	var saveRoot *os.Root
	if c.Save != "" {
		// Opened before the read and written through after it: a symlink
		// planted at the path meanwhile is never followed.
		if saveRoot, err = openSaveDir(c.Save); err != nil {
			return err
		}
		defer saveRoot.Close()
	}
	rec := &recorder{next: route}
	rctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	start := time.Now()
	res := site.Adapter.Read(rctx, site, rec, ref.SeriesID)
	total := time.Since(start)
	// As the Lane judges a read (lanes.Manager.read): ok without a Latest
	// Chapter is no_chapter, and an unknown word is errors.
	if res.Outcome == sites.OK && res.Facts.Latest == nil {
		res.Outcome = sites.NoChapter
	}
	if !res.Outcome.Valid() {
		res = sites.Result{Outcome: sites.Errors, Err: fmt.Errorf("probe: adapter returned outcome %q", res.Outcome)}
	}

	rep := report(ref, routeName, res, rec.exchanges(), total)
	shapeFetches(site.Adapter, rec.exchanges(), rep.Fetches)
	if c.Save != "" {
		files, err := saveExchanges(saveRoot, c.URL, ref, routeName, res, rec.exchanges(), start)
		if err != nil {
			return err
		}
		for i, f := range files {
			rep.Fetches[i].File = f
		}
		rep.Saved = c.Save
	}
	if err := c.print(rep); err != nil {
		return fmt.Errorf("probe: print: %w", err)
	}
	if res.Outcome != sites.OK {
		return fmt.Errorf("probe: %s %s: outcome %s", ref.Site, ref.SeriesID, res.Outcome)
	}
	return nil
}

// report builds the printed report. Text from the Site is made visible
// (control characters escaped) before it reaches a terminal.
func report(ref sites.Ref, route string, res sites.Result, ex []exchange, total time.Duration) probeReport {
	rep := probeReport{Site: ref.Site, SeriesID: ref.SeriesID, URL: ref.URL, Route: route,
		Outcome: string(res.Outcome), Status: res.Status, Title: visible(res.Facts.Title),
		CoverURL: visible(res.Facts.CoverURL), Rows: res.Facts.Rows, Skipped: res.Facts.Skipped,
		TotalMS: total.Milliseconds(), Fetches: []probeFetch{}}
	if rep.Skipped == nil {
		rep.Skipped = map[string]int{}
	}
	if res.Err != nil && res.Outcome != sites.OK {
		rep.Error = visible(res.Err.Error())
	}
	if ch := res.Facts.Latest; ch != nil && res.Outcome == sites.OK {
		rep.Latest = &probeChapter{Number: ch.Number, Title: visible(ch.Title), URL: visible(ch.URL)}
		if !ch.ReleasedAt.IsZero() {
			t := ch.ReleasedAt.UTC()
			rep.Latest.ReleasedAt = &t
		}
	}
	for _, e := range ex {
		f := probeFetch{URL: e.req.Target(), MS: e.took.Milliseconds()}
		if e.err != nil {
			f.Error = visible(e.err.Error())
		}
		if e.resp != nil {
			f.Status = e.resp.Status
			if e.resp.FinalURL != nil {
				f.FinalURL = visible(e.resp.FinalURL.String())
				rep.FinalURL = f.FinalURL
			}
		}
		rep.Fetches = append(rep.Fetches, f)
	}
	return rep
}

// writeJSONReport writes a probe's report as indented JSON, its Site
// text kept inert for a terminal.
func writeJSONReport(w io.Writer, rep any) error {
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	_, err = w.Write(append(safetext.EscapeJSON(js), '\n'))
	return err
}

func (c *ProbeCmd) print(rep probeReport) error {
	w := writer(c.out)
	if c.JSON {
		return writeJSONReport(w, rep)
	}
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-10s %s\n", k, v) }
	line("site", rep.Site)
	line("series_id", rep.SeriesID)
	line("url", rep.URL)
	line("route", rep.Route)
	line("outcome", rep.Outcome)
	if rep.Error != "" {
		line("error", rep.Error)
	}
	line("title", orNone(rep.Title))
	if rep.Latest != nil {
		line("latest", fmt.Sprintf("%s  %q  %s", rep.Latest.Number, rep.Latest.Title, rep.Latest.URL))
		if rep.Latest.ReleasedAt != nil {
			line("released", rep.Latest.ReleasedAt.Format(time.RFC3339))
		}
	} else {
		line("latest", "(none)")
	}
	line("rows", fmt.Sprintf("%d seen, %s", rep.Rows, skippedText(rep.Skipped)))
	line("final_url", orNone(rep.FinalURL))
	for i, f := range rep.Fetches {
		v := fmt.Sprintf("%d ms  %s", f.MS, f.URL)
		switch {
		case f.Error != "":
			v += "  error: " + f.Error
		default:
			v += fmt.Sprintf("  HTTP %d", f.Status)
		}
		if f.File != "" {
			v += "  -> " + f.File
		}
		line(fmt.Sprintf("fetch %d", i+1), v)
		if f.Found != nil || f.Missed != nil {
			line(fmt.Sprintf("fields %d", i+1), shapeLine(f))
		}
	}
	line("total", fmt.Sprintf("%d ms", rep.TotalMS))
	if rep.Saved != "" {
		line("saved", rep.Saved)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func skippedText(skipped map[string]int) string {
	n := 0
	var reasons []string
	for r, k := range skipped {
		n += k
		reasons = append(reasons, fmt.Sprintf("%s: %d", visible(r), k))
	}
	sort.Strings(reasons)
	if n == 0 {
		return "0 skipped"
	}
	return fmt.Sprintf("%d skipped (%s)", n, strings.Join(reasons, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// visible makes Site text inert for the terminal (safetext.Show) after
// cutting very long text to a URL's bound.
func visible(s string) string {
	if r := []rune(s); len(r) > safetext.MaxURL {
		s = string(r[:safetext.MaxURL]) + "…"
	}
	return safetext.Show(s)
}

// openSaveDir makes the --save directory if needed, refuses one that
// already holds files (so a probe never overwrites an earlier capture),
// and returns a handle on it. Every file is written through the handle
// (an os.Root): the directory the probe checked is the one it writes
// into, whatever is renamed or symlinked at its path during the read.
//
// A path that is a symbolic link when the probe opens it is refused
// (someone who can write beside the path, in a shared /tmp, could have
// pointed it at the Owner's directory before the run): the directory is
// opened with O_NOFOLLOW, and the handle must be that same directory, so
// no swap between the two opens gets through.
func openSaveDir(dir string) (*os.Root, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, usagef("probe: --save %s: %v", dir, err)
	}
	// Mkdir makes no directory through a symlink: at a planted one it
	// fails with "exists", and the open below says what it is.
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, usagef("probe: --save %s: %v", dir, err)
	}
	held, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, usagef("probe: --save %s is a symbolic link; give a directory path that is not one", dir)
		}
		return nil, usagef("probe: --save %s: %v", dir, err)
	}
	defer held.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, usagef("probe: --save %s: %v", dir, err)
	}
	want, err1 := held.Stat()
	got, err2 := root.Stat(".")
	if err1 != nil || err2 != nil || !os.SameFile(want, got) {
		root.Close()
		return nil, usagef("probe: --save %s changed while it was opened (a symbolic link put in its place?); give a directory only you can write to", dir)
	}
	f, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, usagef("probe: --save %s: %v", dir, err)
	}
	names, err := f.Readdirnames(1)
	f.Close()
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		root.Close()
		return nil, usagef("probe: --save %s: %v", dir, err)
	case len(names) > 0:
		root.Close()
		return nil, usagef("probe: --save %s is not empty; give a new directory so no earlier capture is overwritten", dir)
	}
	return root, nil
}
