package api_test

import (
	"bufio"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/auth"
	"mangabookmark/backend/web"
)

// docRoute is one "METHOD /path" entry of docs/api.md.
type docRoute struct{ method, path string }

func (d docRoute) String() string { return d.method + " " + d.path }

var routeEntry = regexp.MustCompile(`^(?:(GET|POST|PUT|PATCH|DELETE|HEAD)\s+)?(/[^\s?(]*)`)

// documentedRoutes reads every route out of the first cell of docs/api.md's
// tables (the page's last section says how that cell is written).
func documentedRoutes(t *testing.T) []docRoute {
	t.Helper()
	f, err := os.Open("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docRoute
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cell := strings.TrimSpace(strings.SplitN(line[2:], " |", 2)[0])
		method := ""
		for _, item := range strings.Split(cell, ", ") {
			m := routeEntry.FindStringSubmatch(strings.TrimSpace(item))
			if m == nil {
				continue
			}
			if m[1] != "" {
				method = m[1]
			}
			if method == "" {
				t.Fatalf("docs/api.md: %q names a path without a method", cell)
			}
			out = append(out, docRoute{method, m[2]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("docs/api.md: read only %d routes; has the table shape changed?", len(out))
	}
	return out
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// served reports whether resolve answers d by a pattern of its own: the
// pattern ServeMux picks must name the same path (or be a subtree above it,
// like /auth/discord/), never the catch-all "/".
func served(resolve func(*http.Request) string, d docRoute) (string, bool) {
	concrete := pathParam.ReplaceAllString(d.path, "x-$1")
	pattern := resolve(httptest.NewRequest(d.method, concrete, nil))
	if pattern == "" || pattern == "/" { // "/" is the catch-all 404
		return pattern, false
	}
	p := pattern
	if i := strings.IndexByte(p, ' '); i >= 0 {
		p = p[i+1:]
	}
	p = strings.TrimSuffix(p, "{$}")
	switch {
	case samePath(p, d.path), p != "/" && strings.HasSuffix(p, "/") && strings.HasPrefix(d.path, p):
		return pattern, true
	}
	return pattern, false
}

// samePath reports whether the served pattern p names the documented path
// doc, segment by segment: the same text, or a whole-segment wildcard
// serving a documented segment that holds a parameter with a fixed
// suffix (ServeMux cannot match "{feed_token}.atom", so the handler reads
// the suffix itself).
func samePath(p, doc string) bool {
	ps, ds := strings.Split(p, "/"), strings.Split(doc, "/")
	if len(ps) != len(ds) {
		return false
	}
	for i := range ps {
		wild := strings.HasPrefix(ps[i], "{") && strings.HasSuffix(ps[i], "}")
		suffixed := strings.HasPrefix(ds[i], "{") && strings.Contains(ds[i], "}.")
		if ps[i] != ds[i] && (!wild || !suffixed) {
			return false
		}
	}
	return true
}

// newSite is the API server with the web pages mounted, as serve wires it.
func newSite(t *testing.T, cfg api.Config, oauth web.Discord) (*api.Server, *web.Handler) {
	t.Helper()
	srv, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pages := web.New(web.Deps{Admin: srv.Admin, OAuth: oauth})
	srv.MountWeb(pages)
	return srv, pages
}

// resolveSite follows a request as the mounted server does: into the web
// pages' own routes when the API hands the path to them.
func resolveSite(srv *api.Server, pages *web.Handler) func(*http.Request) string {
	return func(r *http.Request) string {
		p := srv.Route(r)
		if slices.Contains(api.WebPrefixes, p) {
			return pages.Pattern(r)
		}
		return p
	}
}

func TestRoutesMatchDocsAPI(t *testing.T) {
	t.Parallel()
	srv, pages := newSite(t, api.Config{Userjs: []byte("// js")}, noDiscord{})
	resolve := resolveSite(srv, pages)
	used := map[string]bool{}
	for _, d := range documentedRoutes(t) {
		pattern, ok := served(resolve, d)
		if !ok {
			t.Errorf("docs/api.md documents %s, but the server does not serve it (it resolves to %q)", d, pattern)
			continue
		}
		used[pattern] = true
	}
	for _, p := range append(srv.Routes(), pages.Patterns()...) {
		if p == "/" || slices.Contains(api.WebPrefixes, p) {
			continue // the catch-all 404, and the paths handed to the pages
		}
		if !used[p] {
			t.Errorf("the server serves %q, but docs/api.md does not document it", p)
		}
	}
}

// TestRoutesCheckCatchesDrift proves the check can fail both ways.
func TestRoutesCheckCatchesDrift(t *testing.T) {
	t.Parallel()
	srv, pages := newSite(t, api.Config{}, nil)
	resolve := resolveSite(srv, pages)
	if _, ok := served(resolve, docRoute{"GET", "/api/nothing"}); ok {
		t.Error("an unserved path counts as served")
	}
	if _, ok := served(resolve, docRoute{"DELETE", "/api/me"}); ok {
		t.Error("a served path under the wrong method counts as served")
	}
	if _, ok := served(resolve, docRoute{"GET", "/auth/discord/login"}); ok {
		t.Error("the OAuth routes count as served on a server without OAuth")
	}
	if _, ok := served(resolve, docRoute{"GET", "/admin/nothing"}); ok {
		t.Error("an unserved page under a path handed to the pages counts as served")
	}
	if p, ok := served(resolve, docRoute{"DELETE", "/api/bookmarks/{site}/{series_id}"}); !ok {
		t.Errorf("a served route with parameters does not count (resolved %q)", p)
	}
	if p, ok := served(resolve, docRoute{"POST", "/admin/lanes/{site}/pause"}); !ok {
		t.Errorf("a served page route does not count (resolved %q)", p)
	}
}

// noDiscord is a Discord login that is configured but never reached: the
// route check only asks which patterns are served.
type noDiscord struct{}

func (noDiscord) Begin(http.ResponseWriter, *http.Request) error { return errors.New("not reached") }

func (noDiscord) Complete(http.ResponseWriter, *http.Request) (auth.Login, error) {
	return auth.Login{}, errors.New("not reached")
}
