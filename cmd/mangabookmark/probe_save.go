package main

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"mangabookmark/backend/sites"
)

// exchange is one request a read made and what the route answered.
type exchange struct {
	req  sites.Request
	resp *sites.Response
	err  error
	took time.Duration
}

// recorder is a sites.Fetcher that passes every request to the route and
// keeps each answer, raw, for the report and --save.
type recorder struct {
	next sites.Fetcher

	mu  sync.Mutex
	log []exchange
}

var _ sites.Fetcher = (*recorder)(nil)

// Fetch runs the request through the route and records it.
func (r *recorder) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	start := time.Now()
	resp, err := r.next.Fetch(ctx, req)
	r.mu.Lock()
	r.log = append(r.log, exchange{req: req, resp: resp, err: err, took: time.Since(start)})
	r.mu.Unlock()
	return resp, err
}

func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]exchange(nil), r.log...)
}

// savedFile is one manifest.json entry: what was asked, what came back and
// where its body is. A replay serves File for Page/Data with Status and
// ContentType, which is what the adapter saw.
type savedFile struct {
	File        string `json:"file,omitempty"`
	Page        string `json:"page"`
	Data        string `json:"data,omitempty"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	FinalURL    string `json:"final_url,omitempty"`
	Error       string `json:"error,omitempty"`
}

// saveExchanges writes each response body into dir (openSaveDir's handle)
// as NN-<path>.<ext>, plus manifest.json and a README.md recording the URL
// and the time. It returns the file name of each exchange ("" for one that
// had no response).
func saveExchanges(dir *os.Root, rawURL string, ref sites.Ref, route string, res sites.Result, ex []exchange, at time.Time) ([]string, error) {
	files := make([]string, len(ex))
	manifest := make([]savedFile, 0, len(ex))
	for i, e := range ex {
		m := savedFile{Page: e.req.Page, Data: e.req.Data}
		if e.err != nil {
			m.Error = e.err.Error()
		}
		if e.resp != nil {
			m.Status = e.resp.Status
			m.ContentType = e.resp.Header.Get("Content-Type")
			if e.resp.FinalURL != nil {
				m.FinalURL = e.resp.FinalURL.String()
			}
			m.File = fmt.Sprintf("%02d-%s.%s", i+1, pathSlug(e.req.Target()), extFor(m.ContentType))
			if err := writeNew(dir, m.File, e.resp.Body); err != nil {
				return nil, fmt.Errorf("probe: --save: %w", err)
			}
			files[i] = m.File
		}
		manifest = append(manifest, m)
	}
	mj, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("probe: --save: %w", err)
	}
	if err := writeNew(dir, "manifest.json", append(mj, '\n')); err != nil {
		return nil, fmt.Errorf("probe: --save: %w", err)
	}
	readme := saveReadme(rawURL, ref, route, res, manifest, at)
	if err := writeNew(dir, "README.md", []byte(readme)); err != nil {
		return nil, fmt.Errorf("probe: --save: %w", err)
	}
	return files, nil
}

func saveReadme(rawURL string, ref sites.Ref, route string, res sites.Result, manifest []savedFile, at time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mangabookmark probe: %s %s\n\n", ref.Site, ref.SeriesID)
	fmt.Fprintf(&b, "Saved by `mangabookmark probe --save` at %s from\n%s\n\n", at.UTC().Format(time.RFC3339), visible(rawURL))
	fmt.Fprintf(&b, "- Site: %s, read through the %s route\n", ref.Site, route)
	fmt.Fprintf(&b, "- Series: %s (canonical URL %s)\n", ref.SeriesID, ref.URL)
	fmt.Fprintf(&b, "- Outcome: %s\n", res.Outcome)
	if ch := res.Facts.Latest; ch != nil && res.Outcome == sites.OK {
		fmt.Fprintf(&b, "- Latest Chapter: %s %q %s\n", ch.Number, visible(ch.Title), visible(ch.URL))
	}
	b.WriteString("\n| file | request | status | content type |\n|---|---|---|---|\n")
	for _, m := range manifest {
		req := m.Page
		if m.Data != "" {
			req = m.Data + " (inside " + m.Page + ")"
		}
		file, status := m.File, fmt.Sprint(m.Status)
		if file == "" {
			file, status = "(none)", "error: "+visible(m.Error)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", file, visible(req), status, m.ContentType)
	}
	fmt.Fprintf(&b, "\nmanifest.json lists the same requests with their final URLs.\n\n"+
		"To turn a file into a fixture: copy it into backend/sites/%s/testdata/ under a name\n"+
		"that says what it shows, replace ids and trim it as needed, and list it in that\n"+
		"testdata/README.md with its provenance: this URL, this date, what you changed.\n"+
		"See docs/operations.md, \"When a Site changes\".\n", ref.Site)
	return b.String()
}

// pathSlug names a file after its URL's path: lower case, letters, digits
// and dashes, at most 60 characters.
func pathSlug(raw string) string {
	u, err := url.Parse(raw)
	p := raw
	if err == nil {
		p = u.Path
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(p) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "root"
	}
	return s
}

// extFor is the file extension for a Content-Type.
func extFor(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	switch {
	case err != nil:
		return "bin"
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "html"
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return "json"
	case strings.HasPrefix(mt, "text/"):
		return "txt"
	}
	return "bin"
}

// writeNew creates name in dir and writes b. O_EXCL|O_NOFOLLOW: a file or
// symlink planted in the directory while the probe read the Site is never
// followed or overwritten; the save fails instead.
func writeNew(dir *os.Root, name string, b []byte) error {
	f, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
