package weebcentral

import (
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParseChapterListRefusesHostileHrefs: a row's href is Site-controlled.
// A script, data, credential-bearing or protocol-relative link never becomes
// the Latest Chapter's URL; the number the label gives still counts.
func TestParseChapterListRefusesHostileHrefs(t *testing.T) {
	t.Parallel()
	for _, href := range []string{"javascript:alert(document.cookie)", " JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
		"https://weebcentral.com:x@evil.example/chapters/01M0E7K6FVFS7MAQT31A5RMS12", "vbscript:msgbox(1)", "file:///etc/passwd",
		"https://" + strings.Repeat("a", 5000) + ".example/"} {
		body := `<div x-data="{}"><a href="` + strings.ReplaceAll(href, `"`, "&quot;") + `"><span class="flex"><span class="">Suggestion 192</span></span>` +
			`<time datetime="2024-09-07T00:00:00.000Z">x</time></a></div>`
		f, out, err := ParseChapterList([]byte(body), base)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "192" {
			t.Fatalf("href %.40q: outcome %q, error %v, latest %+v", href, out, err, f.Latest)
		}
		if f.Latest.URL != "" {
			t.Errorf("href %.40q became the chapter URL %.80q", href, f.Latest.URL)
		}
	}
}
