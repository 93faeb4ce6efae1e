package comix

import (
	"encoding/json"
	"fmt"
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

// TestParsePageBoundsHostileLinksAndAltTitles: the detail's links and
// altTitles are the Site's to write. A links map of a hundred thousand
// keys, links of the wrong type, links on other hosts, and ten thousand
// alternative titles cost the read only those values: the Latest Chapter,
// the good ids and a bounded list of titles remain.
func TestParsePageBoundsHostileLinksAndAltTitles(t *testing.T) {
	t.Parallel()
	page := func(links, alts string) []byte {
		return []byte(`<html><body><script id="initial-data" type="application/json">{"page":"manga","queries":{"[\"manga\",\"detail\",\"keqvv\"]":` +
			`{"hid":"keqvv","title":"T","hasChapters":true,"latestChapter":41,"latestChapterUrl":"/title/keqvv-t/1-chapter-41",` +
			`"links":` + links + `,"altTitles":` + alts + `}}}</script></body></html>`)
	}
	var huge, alts strings.Builder
	huge.WriteString(`{`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&huge, `"k%d":"https://anilist.co/manga/%d",`, i, i+1)
	}
	huge.WriteString(`"al":"https://anilist.co/manga/30002","mu":"https://www.mangaupdates.com/series.html?id=157722"}`)
	alts.WriteString(`[`)
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&alts, `"Alt %d",{"t":1},`, i)
	}
	alts.WriteString(`"last"]`)
	for _, c := range []struct {
		name, links, alts string
		ids               string
		alt               int
	}{
		{"huge", huge.String(), alts.String(), "[{al 30002} {mu_legacy 157722}]", sites.MaxAltTitles},
		{"null", `null`, `null`, "[]", 0},
		{"list", `["https://anilist.co/manga/1"]`, `{"en":"x"}`, "[]", 0},
		{"other hosts", `{"al":"https://evil.example/manga/1","mal":"https://anilist.co/manga/2","md":"https://mangadex.org.evil.example/title/9aaec59c-3bd9-48fa-b1e2-ab0961d0231b","mb":"javascript:alert(1)"}`, `[]`, "[]", 0},
		{"wrong types", `{"al":1,"mal":[],"mu":{},"md":true,"mb":null}`, `[1,null,true]`, "[]", 0},
	} {
		f, out, err := ParsePage(page(c.links, c.alts), base, readAt)
		if out != sites.OK || err != nil || f.Latest == nil || f.Latest.Number != "41" {
			t.Fatalf("%s: outcome %q, error %v, latest %+v", c.name, out, err, f.Latest)
		}
		if got := fmt.Sprint(f.IDs); got != c.ids {
			t.Errorf("%s: ids %s, want %s", c.name, got, c.ids)
		}
		if len(f.AltTitles) != c.alt {
			t.Errorf("%s: %d alt titles, want %d", c.name, len(f.AltTitles), c.alt)
		}
	}
}
