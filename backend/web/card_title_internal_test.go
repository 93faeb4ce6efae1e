package web

import "testing"

// A Series the Lane has not read yet has no title: its card reads one
// from the URL's slug, skipping ids (a UUID, a ULID, a hash, a long
// number) and section words, and never shows the raw id; its cover's
// initial is the title's first letter, or a neutral glyph, never "0".
func TestCardTitleBeforeTheFirstRead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ title, url, site, want, initial string }{
		{"Frieren", "https://a.test/title/x", "mangadex", "Frieren", "F"},
		{"  élan vital ", "", "comix", "élan vital", "É"},
		{"", "https://a.test/title/0f5e1d2c-aaaa-4bbb-8ccc-0123456789ab/the-summer-story", "mangadex", "The Summer Story", "T"},
		{"", "https://a.test/title/0f5e1d2c-aaaa-4bbb-8ccc-0123456789ab", "mangadex", "Untitled on mangadex", "U"},
		{"", "https://a.test/series/01J76XYZ8ABCD0EFGH12345678/Solo-Leveling", "weebcentral", "Solo Leveling", "S"},
		{"", "https://a.test/title/93q1r-kaiju-no-8", "comix", "Kaiju No 8", "K"},
		{"", "https://a.test/manga/one-piece.1234", "mangakatana", "One Piece", "O"},
		{"", "https://a.test/manga/86-eighty-six/", "mgeko", "86 Eighty Six", "E"},
		{"", "https://a.test/manga/12345/the_quiet_sea", "mangapill", "The Quiet Sea", "T"},
		{"", "https://a.test/manga/0", "mangapill", "Untitled on mangapill", "U"},
		{"", "https://a.test/0", "mangapill", "Untitled on mangapill", "U"},
		{"", "https://a.test/comic/a%20b%20c", "comix", "A B C", "A"},
		{"", "::not a url", "comix", "Untitled on comix", "U"},
		{"2046", "", "comix", "2046", "•"},
	} {
		title, initial := cardTitle(c.title, "", c.url, c.site)
		if title != c.want || initial != c.initial {
			t.Errorf("cardTitle(%q, %q) = %q, %q; want %q, %q", c.title, c.url, title, initial, c.want, c.initial)
		}
	}
}

// The order of a card's title: the Series' own, then the title the
// Reader's import gave it, then the slug, then "Untitled on {site}".
func TestCardTitleOrder(t *testing.T) {
	t.Parallel()
	const slugged = "https://a.test/manga/12345/the_quiet_sea"
	for _, c := range []struct{ title, given, url, want string }{
		{"Read By The Lane", "Imported", slugged, "Read By The Lane"},
		{"", "Imported", slugged, "Imported"},
		{"", "  ", slugged, "The Quiet Sea"},
		{"", "", slugged, "The Quiet Sea"},
		{"", "", "https://a.test/manga/0", "Untitled on comix"},
		{"", "Imported", "https://a.test/manga/0", "Imported"},
	} {
		if got, _ := cardTitle(c.title, c.given, c.url, "comix"); got != c.want {
			t.Errorf("cardTitle(%q, %q, %q) = %q, want %q", c.title, c.given, c.url, got, c.want)
		}
	}
}
