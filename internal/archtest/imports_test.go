package archtest

import (
	"strings"
	"testing"
)

// TestImportMap holds every package's imports to docs/architecture.md.
func TestImportMap(t *testing.T) {
	t.Parallel()
	m := readImportMap(t)
	used := map[string]bool{}
	for _, p := range goList(t, "./...") {
		from, _ := local(p.ImportPath)
		key, ok := m.row(from)
		if !ok {
			t.Errorf("%s has no row in docs/architecture.md's import map: add one", from)
			continue
		}
		used[key] = true
		for _, imp := range p.Imports {
			to, ok := local(imp)
			if ok && !m.allows(from, to) {
				t.Errorf("%s imports %s, which docs/architecture.md's import map does not allow (row %s)", from, to, key)
			}
		}
	}
	for key := range m {
		if !used[key] {
			t.Errorf("docs/architecture.md's import map has a row for %s, but no such package exists", key)
		}
	}
}

// owners lists outside libraries only some packages may import (the same
// rule is in .golangci.yml's depguard section and in docs/architecture.md).
var owners = map[string][]string{
	"github.com/go-rod/rod":               {"backend/browser"},
	"github.com/jackc/pgx/v5":             {"backend/store", "backend/store/dbtest", "backend/config"},
	"github.com/charmbracelet/bubbletea":  {"tui", "tui/*", "cmd/mbctl/cli"},
	"github.com/pressly/goose/v3":         {"backend/store", "backend/store/dbtest", "migrations"},
	"github.com/prometheus/client_golang": {"backend/api"},
	"github.com/charmbracelet/bubbles":    {"tui", "tui/*", "cmd/mbctl/cli"},
	"github.com/charmbracelet/lipgloss":   {"tui", "tui/*", "cmd/mbctl/cli"},
	"golang.org/x/oauth2":                 {"backend/auth"},
	"github.com/alecthomas/kong":          {"cmd/mangabookmark", "cmd/mbctl", "cmd/mbctl/cli"},
	"github.com/willabides/kongplete":     {"cmd/mangabookmark", "cmd/mbctl", "cmd/mbctl/cli"},
}

// TestLibraryOwners holds the outside libraries to their owning packages.
func TestLibraryOwners(t *testing.T) {
	t.Parallel()
	for _, p := range goList(t, "./...") {
		from, _ := local(p.ImportPath)
		for _, imp := range p.Imports {
			for lib, allowed := range owners {
				if imp != lib && !strings.HasPrefix(imp, lib+"/") {
					continue
				}
				ok := false
				for _, a := range allowed {
					ok = ok || matches(a, from)
				}
				if !ok {
					t.Errorf("%s imports %s; only %v may", from, imp, allowed)
				}
			}
		}
	}
}

// TestAuthStaysLight is issue 16's boundary: the token service compiles
// neither the HTTP layer, the Lanes nor the Discord webhook.
func TestAuthStaysLight(t *testing.T) {
	t.Parallel()
	deps := goList(t, "-deps", "./backend/auth")
	for _, p := range deps {
		for _, banned := range []string{"backend/api", "backend/lanes", "backend/ownernotice"} {
			if p.ImportPath == module+banned || strings.HasPrefix(p.ImportPath, module+banned+"/") {
				t.Errorf("go list -deps ./backend/auth contains %s", p.ImportPath)
			}
		}
	}
	if len(deps) < 5 {
		t.Fatalf("go list -deps ./backend/auth listed only %d packages", len(deps))
	}
}

// TestMapCheckCanFail proves the rules reject what they should.
func TestMapCheckCanFail(t *testing.T) {
	t.Parallel()
	m := readImportMap(t)
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"backend/auth", "backend/api", false},
		{"backend/admin", "backend/api", false},
		{"backend/admin", "client", true},
		{"backend/readernotice", "backend/ownernotice", false},
		{"backend/store", "backend/sites", false},
		{"tui", "backend/store", false},
		{"backend/sites/mangadex", "backend/sites/comix", false},
		{"backend/api", "backend/store/dbtest", false},
		{"backend/web", "backend/api", false},
		{"backend/admin", "backend/api", false},
		{"backend/api", "backend/auth", true},
		{"backend/sites/registry", "backend/sites/comix", true},
		{"backend/sites/mangadex", "backend/sites/internal/dom", true},
		{"cmd/mangabookmark", "backend/lanes", true},
	} {
		if got := m.allows(c.from, c.to); got != c.want {
			t.Errorf("%s -> %s allowed = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}
