package archtest

import (
	"strings"
	"testing"
)

// TestWebDoesNotImportAPI is issue 24's boundary: the two HTTP faces are
// siblings over backend/admin (the Owner's read model and acts), so the
// pages compile without the JSON API. Only the wire package
// client, which imports nothing of the project, may be reached.
func TestWebDoesNotImportAPI(t *testing.T) {
	t.Parallel()
	deps := goList(t, "-deps", "./backend/web")
	seen := map[string]bool{}
	for _, p := range deps {
		seen[p.ImportPath] = true
		for _, banned := range []string{"backend/api", "backend/admin/admintest"} {
			if p.ImportPath == module+banned {
				t.Errorf("go list -deps ./backend/web contains %s", p.ImportPath)
			}
		}
	}
	if !seen[module+"backend/admin"] {
		t.Errorf("go list -deps ./backend/web lacks backend/admin: the pages no longer read the Owner's read model")
	}
}

// TestAdminDoesNotImportAPI is issue 34's boundary: the Owner's read model
// sits below both faces, so nothing under backend/api is in its build (the
// wire types it shares with them live in the top-level client). Its test
// world, admintest, stays below them too: the JSON server over that world
// is backend/api/apitest.
func TestAdminDoesNotImportAPI(t *testing.T) {
	t.Parallel()
	deps := goList(t, "-deps", "./backend/admin/...")
	seen := map[string]bool{}
	for _, p := range deps {
		seen[p.ImportPath] = true
		if p.ImportPath == module+"backend/api" || strings.HasPrefix(p.ImportPath, module+"backend/api/") {
			t.Errorf("go list -deps ./backend/admin/... contains %s: the test world that starts a JSON server belongs in backend/api/apitest", p.ImportPath)
		}
	}
	if !seen[module+"backend/admin/admintest"] {
		t.Errorf("go list -deps ./backend/admin/... lacks backend/admin/admintest: was the test world moved?")
	}
	if !seen[module+"client"] {
		t.Errorf("go list -deps ./backend/admin lacks client: the read model no longer speaks the wire types")
	}
}
