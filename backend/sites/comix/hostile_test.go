package comix

import (
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParseChaptersRefusesHostileChapterIDs: chapter_id is Site-controlled
// and goes into the chapter link's path. One that is not a plain number
// (a path, a URL, a script, an encoded slash) leaves the link empty; the
// chapter's number still counts and the link never leaves the Series.
func TestParseChaptersRefusesHostileChapterIDs(t *testing.T) {
	t.Parallel()
	for _, cid := range []string{`"../../admin"`, `"1/../../../evil"`, `"https://evil.example/x"`, `"javascript:alert(1)"`,
		`"12%2F..%2F..%2Fx"`, `"-1"`, `"1e3"`, `"12 "`, `{"id": 12}`, `[12]`, `true`} {
		body := `{"result": {"items": [{"chapter_id": ` + cid + `, "number": 41, "name": "", "created_at": 1786000000}]}}`
		f, out, err := ParseChapters([]byte(body), base, id)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "41" {
			t.Fatalf("chapter_id %s: outcome %q, error %v, latest %+v", cid, out, err, f.Latest)
		}
		if f.Latest.URL != "" {
			t.Errorf("chapter_id %s became the link %q", cid, f.Latest.URL)
		}
	}
	// A plain numeric id, as a number or a string, gives a link under the Series.
	for _, cid := range []string{`7001`, `"7001"`} {
		body := `{"result": {"items": [{"chapter_id": ` + cid + `, "number": 41}]}}`
		f, _, _ := ParseChapters([]byte(body), base, id)
		want := base + "/title/" + id + "/" + strconv.Itoa(7001) + "-chapter-41"
		if f.Latest == nil || f.Latest.URL != want || !strings.HasPrefix(f.Latest.URL, base+"/title/") {
			t.Errorf("chapter_id %s: latest %+v, want link %s", cid, f.Latest, want)
		}
	}
}
