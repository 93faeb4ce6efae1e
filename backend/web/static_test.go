package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

var staticLink = regexp.MustCompile(`(?:href|src)="(/web/([a-z]+)\.([0-9a-f]{12})\.(css|js))"`)

// The pages link each static file by a name carrying its content's hash,
// serve it immutable under that name only, and 404 the plain name and any
// other fingerprint, so an upgrade never shows yesterday's CSS.
func TestStaticFilesAreFingerprintedAndImmutable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	page := f.get(t, f.client(t), "/")
	links := staticLink.FindAllStringSubmatch(page.body, -1)
	if len(links) != 3 {
		t.Fatalf("the login page links %d fingerprinted static files, want 3 (style, app, push):\n%s", len(links), page.body)
	}
	for _, m := range links {
		url, base, hash, ext := m[1], m[2], m[3], m[4]
		src, err := os.ReadFile("static/" + base + "." + ext)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(src)
		if want := hex.EncodeToString(sum[:])[:12]; hash != want {
			t.Errorf("%s: fingerprint %s, but the file's content hashes to %s", url, hash, want)
		}
		a := f.get(t, f.client(t), url)
		if a.code != http.StatusOK || a.body != string(src) {
			t.Errorf("%s: %d, body of %d bytes, want 200 with the file (%d bytes)", url, a.code, len(a.body), len(src))
		}
		if cc := a.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
			t.Errorf("%s: Cache-Control %q, want a year and immutable", url, cc)
		}
		wantType := map[string]string{"css": "text/css", "js": "text/javascript"}[ext]
		if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, wantType) {
			t.Errorf("%s: Content-Type %q, want %s", url, ct, wantType)
		}
		old := "/web/" + base + "." + strings.Repeat("0", 12) + "." + ext
		for _, stale := range []string{"/web/" + base + "." + ext, old, "/web/" + base + "." + hash + "." + ext + "x", "/web/..%2f" + base + "." + ext} {
			if a := f.get(t, f.client(t), stale); a.code != http.StatusNotFound {
				t.Errorf("%s: %d, want 404 (only the current fingerprint is served)", stale, a.code)
			}
		}
	}
}
