package mangapill

import (
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParsePageRefusesHostileHrefs: a chapter row's href is Site-controlled.
// A script, data, credential-bearing or over-long link never becomes the
// Latest Chapter's URL; the number the label gives still counts.
func TestParsePageRefusesHostileHrefs(t *testing.T) {
	t.Parallel()
	for _, href := range []string{"javascript:alert(document.cookie)", " JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
		"https://mangapill.com:x@evil.example/chapters/1-10185000/x", "vbscript:msgbox(1)", "file:///etc/passwd",
		"https://" + strings.Repeat("a", 5000) + ".example/"} {
		body := `<html><body><h1>Series</h1><div id="chapters"><div><a href="` + strings.ReplaceAll(href, `"`, "&quot;") +
			`">Chapter 185</a></div></div></body></html>`
		f, out, err := ParsePage([]byte(body), base)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "185" {
			t.Fatalf("href %.40q: outcome %q, error %v, latest %+v", href, out, err, f.Latest)
		}
		if f.Latest.URL != "" {
			t.Errorf("href %.40q became the chapter URL %.80q", href, f.Latest.URL)
		}
	}
}
