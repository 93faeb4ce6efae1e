package natomanga

import (
	"encoding/json"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParseChaptersRefusesHostileSlugs: chapter_slug is Site-controlled and
// goes into the chapter link's path. When the number comes from
// chapter_num instead (the slug is not "chapter-N"), whatever the slug
// holds, the link is empty or a chapter page under the Series: never the
// Series list itself, another Series or another host.
func TestParseChaptersRefusesHostileSlugs(t *testing.T) {
	t.Parallel()
	prefix := base + "/manga/" + slug + "/"
	for _, s := range []string{"..", ".", "../other-series", "../../admin", "https://evil.example/x", "//evil.example/x",
		"javascript:alert(1)", "%2e%2e", "?x=1", "#top"} {
		sj, _ := json.Marshal(s)
		body := `{"success": true, "data": {"chapters": [{"chapter_slug": ` + string(sj) + `, "chapter_num": 12, "chapter_name": "Chapter 12"}]}}`
		f, out, err := ParseChapters([]byte(body), base, slug)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "12" {
			t.Fatalf("slug %q: outcome %q, error %v, latest %+v", s, out, err, f.Latest)
		}
		if u := f.Latest.URL; u != "" && (!strings.HasPrefix(u, prefix) || len(u) == len(prefix)) {
			t.Errorf("slug %q became the link %q, not a chapter page under %s", s, u, prefix)
		}
	}
}
