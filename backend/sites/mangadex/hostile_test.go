package mangadex

import (
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
)

// TestParseFeedRefusesHostileLinks: the feed's externalUrl and row id are
// Site-controlled. Rows numbered above the real one whose link is a script
// URL, a data URL, protocol-relative, carries credentials, or whose id is a
// path instead of a UUID are skipped ("no link"); the real row stays Latest.
func TestParseFeedRefusesHostileLinks(t *testing.T) {
	t.Parallel()
	row := func(id, chapter, ext string, pages int) string {
		extJSON := "null"
		if ext != "" {
			extJSON = fmt.Sprintf("%q", ext)
		}
		return fmt.Sprintf(`{"id":%q,"type":"chapter","attributes":{"chapter":%q,"title":null,"translatedLanguage":"en",`+
			`"externalUrl":%s,"publishAt":"2026-08-10T12:00:00+00:00","pages":%d}}`, id, chapter, extJSON, pages)
	}
	realID := "2c3d4e5f-3333-4c4d-8e5f-000000000003"
	rows := []string{
		row("2c3d4e5f-3333-4c4d-8e5f-000000000099", "99", "javascript:alert(document.cookie)", 0),
		row("2c3d4e5f-3333-4c4d-8e5f-000000000098", "98", "data:text/html,<script>alert(1)</script>", 0),
		row("2c3d4e5f-3333-4c4d-8e5f-000000000097", "97", "//evil.example/chapter", 0),
		row("2c3d4e5f-3333-4c4d-8e5f-000000000096", "96", "https://mangadex.org:x@evil.example/", 0),
		row("2c3d4e5f-3333-4c4d-8e5f-000000000095", "95", "JaVaScRiPt:alert(1)", 21), // pages do not rescue a bad external link
		row("../../admin?x=", "94", "", 21),
		row(realID, "3", "", 21),
	}
	body := `{"result":"ok","response":"collection","data":[` + strings.Join(rows, ",") + `]}`
	f, out, err := ParseFeed([]byte(body), "https://mangadex.org")
	if out != sites.OK || err != nil {
		t.Fatalf("outcome %q, error %v", out, err)
	}
	if f.Latest == nil || f.Latest.Number != "3" || f.Latest.URL != "https://mangadex.org/chapter/"+realID {
		t.Fatalf("latest = %+v, want chapter 3 on mangadex.org", f.Latest)
	}
	if got := f.Skipped[sites.SkipNoLink]; got != 6 {
		t.Fatalf("skipped no link = %d, want 6 (%v)", got, f.Skipped)
	}
}

// mangaWith is a manga entity whose attributes carry the given links and
// altTitles (raw JSON).
func mangaWith(links, alts string) []byte {
	return []byte(`{"result":"ok","response":"entity","data":{"id":"` + id + `","type":"manga","attributes":{"title":{"en":"T"},` +
		`"altTitles":` + alts + `,"links":` + links + `},"relationships":[]}}`)
}

// TestParseMangaBoundsHostileLinksAndAltTitles: links and altTitles are
// the Site's to write. A huge links map, links of the wrong type, a
// huge altTitles list or values of the wrong type cost the read nothing
// but those values: the title, the good ids and a bounded list of
// alternative titles remain.
func TestParseMangaBoundsHostileLinksAndAltTitles(t *testing.T) {
	t.Parallel()
	var huge strings.Builder
	huge.WriteString(`{`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&huge, `"k%d":"https://evil.example/%d",`, i, i)
	}
	huge.WriteString(`"al":"30013","mu":"https://www.mangaupdates.com/series/7cyaozt"}`)
	var alts strings.Builder
	alts.WriteString(`[`)
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&alts, `{"en":"Alt %d"},{"ja":5},`, i)
	}
	alts.WriteString(`{"en":"last"}]`)
	for _, c := range []struct {
		name, links, alts string
		ids               []sites.ExternalID
		alt               int
	}{
		{"huge", huge.String(), alts.String(), []sites.ExternalID{{Kind: "al", Value: "30013"}, {Kind: "mu", Value: "16020676361"}, {Kind: "md", Value: id}}, sites.MaxAltTitles},
		{"null", `null`, `null`, []sites.ExternalID{{Kind: "md", Value: id}}, 0},
		{"empty list", `[]`, `[]`, []sites.ExternalID{{Kind: "md", Value: id}}, 0},
		{"wrong types", `{"al":["1"],"mal":{"id":2},"mu":true,"kt":3.5}`, `{"en":"x"}`, []sites.ExternalID{{Kind: "md", Value: id}}, 0},
	} {
		f, out, err := ParseManga(mangaWith(c.links, c.alts), id, uploadsOrigin)
		if out != sites.OK || err != nil || f.Title != "T" {
			t.Fatalf("%s: outcome %q, error %v, title %q", c.name, out, err, f.Title)
		}
		if fmt.Sprint(f.IDs) != fmt.Sprint(c.ids) {
			t.Errorf("%s: ids %v, want %v", c.name, f.IDs, c.ids)
		}
		if len(f.AltTitles) != c.alt {
			t.Errorf("%s: %d alt titles, want %d", c.name, len(f.AltTitles), c.alt)
		}
	}
}
