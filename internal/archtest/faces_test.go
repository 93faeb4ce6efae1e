package archtest

import "testing"

// TestWebDoesNotImportAPI is issue 24's boundary: the two HTTP faces are
// siblings over backend/admin (the Owner's read model and acts), so the
// pages compile without the JSON API. Only the wire package
// backend/api/client, which imports nothing of the project, may be reached.
func TestWebDoesNotImportAPI(t *testing.T) {
	t.Parallel()
	deps := goList(t, "-deps", "./backend/web")
	seen := map[string]bool{}
	for _, p := range deps {
		seen[p.ImportPath] = true
		for _, banned := range []string{"backend/api", "backend/api/admintest"} {
			if p.ImportPath == module+banned {
				t.Errorf("go list -deps ./backend/web contains %s", p.ImportPath)
			}
		}
	}
	if !seen[module+"backend/admin"] {
		t.Errorf("go list -deps ./backend/web lacks backend/admin: the pages no longer read the Owner's read model")
	}
}
