package mangadex

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

const id = "a1c7c817-4e59-43b7-9365-09675a149a6f"

func TestParseMangaGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"manga.json", "manga_no_en.json", "manga_not_found.json",
		"manga_ja_ro_only.json", "manga_alt_titles_only.json", "manga_alt_ja_ro_only.json", "manga_links_hostile.json"} {
		f, out, _ := ParseManga(golden.Fixture(t, name), id, uploadsOrigin)
		golden.Check(t, name, out, f)
	}
}

func TestParseFeedGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"feed.json", "feed_only_specials.json", "feed_changed.json", "feed_empty.json", "feed_truncated.json", "manga_not_found.json",
		"feed_external_only.json", "feed_mixed_languages.json", "feed_title_null.json"} {
		f, out, _ := ParseFeed(golden.Fixture(t, name), "https://mangadex.org")
		golden.Check(t, "feed-"+name, out, f)
	}
}

func FuzzParseFeed(f *testing.F) {
	for _, name := range []string{"feed.json", "feed_only_specials.json", "feed_changed.json", "feed_truncated.json"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		f, out, err := ParseFeed(body, "https://mangadex.org")
		checkParse(t, out, err, f.Latest)
	})
}

func FuzzParseManga(f *testing.F) {
	for _, name := range []string{"manga.json", "manga_no_en.json", "manga_not_found.json", "manga_links_hostile.json"} {
		f.Add(golden.Fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fm, out, err := ParseManga(body, id, uploadsOrigin)
		if !out.Valid() || (out == sites.OK) != (err == nil) {
			t.Fatalf("outcome %q with error %v", out, err)
		}
		golden.CheckIDs(t, fm)
	})
}

func checkParse(t *testing.T, out sites.Outcome, err error, ch *sites.Chapter) {
	t.Helper()
	if !out.Valid() || (out == sites.OK) != (err == nil) || (out == sites.OK) != (ch != nil) {
		t.Fatalf("outcome %q, error %v, chapter %+v", out, err, ch)
	}
	if ch != nil {
		if n, ok := sites.ParseNumber(ch.Number); !ok || n != ch.Number {
			t.Fatalf("number %q is not normalised", ch.Number)
		}
	}
}
