package comix

import (
	"encoding/json"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// hostilePage is a title page whose detail carries the given
// latestChapterUrl and latestChapter (raw JSON).
func hostilePage(link, number string) []byte {
	l, _ := json.Marshal(link)
	return []byte(`<html><body><script id="initial-data" type="application/json">{"page":"manga","queries":{"[\"manga\",\"detail\",\"keqvv\"]":` +
		`{"hid":"keqvv","title":"T","hasChapters":true,"latestChapter":` + number + `,"latestChapterUrl":` + string(l) + `}}}</script></body></html>`)
}

// TestParsePageRefusesHostileLatestChapterURL: latestChapterUrl is
// Site-controlled and becomes the chapter link. Anything but a chapter
// path of this same Series for the same number (another host, a scheme,
// a protocol-relative URL, a climb out of /title/, an encoded slash, a
// backslash, a query, another Series' hid, another chapter number) leaves
// the link empty: the number still counts and the link never leaves the
// Site's origin.
func TestParsePageRefusesHostileLatestChapterURL(t *testing.T) {
	t.Parallel()
	for _, link := range []string{
		"https://evil.example/title/keqvv-t/1-chapter-41", "//evil.example/title/keqvv-t/1-chapter-41",
		"javascript:alert(1)", "data:text/html,x", "/title/keqvv-t/../../admin/1-chapter-41",
		"/title/keqvv-t/1-chapter-41/../../../x", "/title/keqvv-t%2F..%2F/1-chapter-41", `\\evil.example\1-chapter-41`,
		"/title/keqvv-t/1-chapter-41?next=https://evil.example", "/title/keqvv-t/1-chapter-41#x",
		"/title/zzzzz-other/1-chapter-41", "/title/keqvv-t/1-chapter-40", "/title/keqvv-t/1-chapter-41 ",
		"http://comix.to/title/keqvv-t/1-chapter-41", "/title/KEQVV-t/1-chapter-41", "/user/logout", "",
	} {
		f, out, err := ParsePage(hostilePage(link, "41"), base, readAt)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "41" {
			t.Fatalf("link %q: outcome %q, error %v, latest %+v", link, out, err, f.Latest)
		}
		if f.Latest.URL != "" {
			t.Errorf("link %q became %q", link, f.Latest.URL)
		}
	}
	// The one good shape is linked on the origin given, whatever it is.
	f, _, _ := ParsePage(hostilePage("/title/keqvv-t/7001-chapter-41", "41"), base, readAt)
	if f.Latest == nil || f.Latest.URL != base+"/title/keqvv-t/7001-chapter-41" || !strings.HasPrefix(f.Latest.URL, base+"/title/") {
		t.Errorf("good link: %+v", f.Latest)
	}
}

// A hostile latestChapter is no number, never a made-up chapter.
func TestParsePageRefusesHostileLatestNumber(t *testing.T) {
	t.Parallel()
	for _, num := range []string{`"41; DROP"`, `null`, `{"n":41}`, `[41]`, `true`, `-3`, `1e400`, `"<b>41</b>"`} {
		f, out, err := ParsePage(hostilePage("/title/keqvv-t/1-chapter-41", num), base, readAt)
		if out != sites.NoChapter || err == nil || f.Latest != nil {
			t.Errorf("latestChapter %s: outcome %q, error %v, latest %+v", num, out, err, f.Latest)
		}
	}
}
