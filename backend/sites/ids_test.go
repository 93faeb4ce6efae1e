package sites

import (
	"strings"
	"testing"
)

func TestNormalizeID(t *testing.T) {
	t.Parallel()
	const uuid = "a1c7c817-4e59-43b7-9365-09675a149a6f"
	for _, c := range []struct{ kind, raw, want string }{
		{IDAniList, "30002", "30002"},
		{IDAniList, " 030002 ", "30002"},
		{IDAniList, "https://anilist.co/manga/30002", "30002"},
		{IDAniList, "https://anilist.co/manga/191071/Creating-Hidden-Endings/", "191071"},
		{IDAniList, "http://www.anilist.co/manga/7", "7"},
		{IDAniList, "//anilist.co/manga/7", "7"},
		{IDMyAnimeList, "186063", "186063"},
		{IDMyAnimeList, "https://myanimelist.net/manga/186063", "186063"},
		{IDMyAnimeList, "https://myanimelist.net/manga/2/Berserk", "2"},
		{IDKitsu, "23040", "23040"},
		{IDKitsu, "https://kitsu.app/manga/23040", "23040"},
		{IDKitsu, "https://kitsu.io/api/edge/manga/23040", "23040"},
		{IDMangaBaka, "598986", "598986"},
		{IDMangaBaka, "https://mangabaka.org/598986", "598986"},
		{IDMangaBaka, "https://mangabaka.dev/series/111541/slug", "111541"},
		// MangaUpdates (backend/muid): the URL id and the API number are
		// kind mu with the API number (7cyaozt is 16020676361 in base 36).
		{IDMangaUpdates, "7cyaozt", "16020676361"},
		{IDMangaUpdates, "7CYAOZT", "16020676361"},
		{IDMangaUpdates, "16020676361", "16020676361"},
		{IDMangaUpdates, "https://www.mangaupdates.com/series/7cyaozt", "16020676361"},
		{IDMangaUpdates, "https://www.mangaupdates.com/series/taikv6z/creating-hidden-endings", "63762556139"},
		{IDMangaUpdates, "https://www.mangaupdates.com/series/rmnzb04/youjo-senki-restaurant", "60143657332"},
		{IDMangaDex, uuid, uuid},
		{IDMangaDex, strings.ToUpper(uuid), uuid},
		{IDMangaDex, "https://mangadex.org/title/" + uuid + "/one-piece", uuid},
		{IDMangaDex, "https://mangadex.org/manga/" + uuid, uuid},
	} {
		got, ok := NormalizeID(c.kind, c.raw)
		if !ok || got != (ExternalID{Kind: c.kind, Value: c.want}) {
			t.Errorf("NormalizeID(%q, %q) = %+v, %v; want %q", c.kind, c.raw, got, ok, c.want)
		}
	}
	// A pre-2022 MangaUpdates id is kind mu_legacy, asked as mu or not,
	// never converted.
	for _, c := range []struct{ kind, raw string }{
		{IDMangaUpdates, "157722"},
		{IDMangaUpdates, "https://www.mangaupdates.com/series.html?id=157722"},
		{IDMangaUpdatesLegacy, "157722"},
		{IDMangaUpdatesLegacy, "https://www.mangaupdates.com/series.html?id=157722"},
	} {
		got, ok := NormalizeID(c.kind, c.raw)
		if !ok || got != (ExternalID{Kind: IDMangaUpdatesLegacy, Value: "157722"}) {
			t.Errorf("NormalizeID(%q, %q) = %+v, %v; want mu_legacy 157722", c.kind, c.raw, got, ok)
		}
	}
}

// TestNormalizeIDRefusesHostileValues: ids come from Site pages and
// backups, so anything but the catalogue's own id shape is refused.
func TestNormalizeIDRefusesHostileValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ kind, raw string }{
		{"ap", "age"},                                   // a kind the product does not link on
		{"", "30002"},                                   //
		{IDAniList, ""},                                 //
		{IDAniList, "0"},                                // zero is no id
		{IDAniList, "000"},                              //
		{IDAniList, "-5"},                               //
		{IDAniList, "1e5"},                              //
		{IDAniList, "30002 " + "\x00"},                  // a control character
		{IDAniList, "300\n02"},                          //
		{IDAniList, "\u202e30002"},                      // a bidi override
		{IDAniList, "３０００２"},                            // full-width digits
		{IDAniList, "1234567890123"},                    // past 12 digits
		{IDAniList, "\xff30002"},                        // invalid UTF-8
		{IDAniList, "https://evil.example/manga/30002"}, // another host
		{IDAniList, "https://anilist.co.evil.example/manga/30002"},              //
		{IDAniList, "https://anilist.co@evil.example/manga/30002"},              //
		{IDAniList, "https://user:pw@anilist.co/manga/30002"},                   // credentials
		{IDAniList, "https://anilist.co:8443/manga/30002"},                      // a port
		{IDAniList, "javascript://anilist.co/manga/30002"},                      // a scheme
		{IDAniList, "https://anilist.co/anime/30002"},                           // not a manga
		{IDAniList, "https://anilist.co/manga/"},                                //
		{IDAniList, "https://myanimelist.net/manga/30002"},                      // another catalogue's link
		{IDMyAnimeList, "https://anilist.co/manga/30002"},                       //
		{IDKitsu, "dons-adventure-in-another-world"},                            // a Kitsu slug links nothing
		{IDKitsu, "https://kitsu.app/manga/dons-adventure"},                     //
		{IDMangaUpdates, "7cyaozt-x"},                                           //
		{IDMangaUpdates, "12345678901234567890"},                                // past 64 bits
		{IDMangaUpdates, "300000"},                                              // six digits past the legacy ids: no form
		{IDMangaUpdates, "https://www.mangaupdates.com/series.html?id=7cyaozt"}, // a legacy link names digits
		{IDMangaUpdates, "https://www.mangaupdates.com/series.html?id=300000"},  // past the last legacy id
		{IDMangaUpdatesLegacy, "7cyaozt"},                                       // a legacy id is digits
		{IDMangaUpdatesLegacy, "16020676361"},                                   //
		{IDMangaUpdates, "https://www.mangaupdates.com/series.html"},            // no id
		{IDMangaUpdates, "https://www.mangaupdates.com/releases/7cyaozt"},
		{IDMangaDex, "a1c7c817-4e59-43b7-9365-09675a149a6"},  // short
		{IDMangaDex, "a1c7c8174e5943b7936509675a149a6f"},     // no dashes
		{IDMangaDex, "00000000-0000-0000-0000-000000000000"}, // the nil UUID
		{IDMangaDex, "../../admin"},
		{IDMangaBaka, "https://mangabaka.org/"},
		{IDMangaBaka, strings.Repeat("1", MaxIDInput+1)},
		{IDMangaBaka, "https://mangabaka.org/" + strings.Repeat("9", MaxIDInput)},
	} {
		if got, ok := NormalizeID(c.kind, c.raw); ok {
			t.Errorf("NormalizeID(%q, %q) = %+v, want refused", c.kind, c.raw, got)
		}
	}
}

func TestAddIDKeepsTheFirstOfEachKind(t *testing.T) {
	t.Parallel()
	var ids []ExternalID
	ids = AddID(ids, IDAniList, "https://anilist.co/manga/1")
	ids = AddID(ids, IDAniList, "2")
	ids = AddID(ids, IDMangaUpdates, "https://evil.example/series/x")
	ids = AddID(ids, IDMangaUpdates, "7cyaozt")
	ids = AddID(ids, IDMangaUpdates, "16020676361") // the same kind again, in another form
	if len(ids) != 2 || ids[0] != (ExternalID{IDAniList, "1"}) || ids[1] != (ExternalID{IDMangaUpdates, "16020676361"}) {
		t.Fatalf("ids %+v", ids)
	}
}

func TestAddAltTitleCleansAndBounds(t *testing.T) {
	t.Parallel()
	f := Facts{Title: "Void Swell"}
	for _, s := range []string{"Black Tide", "黑潮", "", "  ", "void swell", "BLACK TIDE", "Evil\u202e\x00 Name", strings.Repeat("x", 5000)} {
		f.AddAltTitle(s)
	}
	want := []string{"Black Tide", "黑潮", "Evil Name", strings.Repeat("x", 300)}
	if strings.Join(f.AltTitles, "|") != strings.Join(want, "|") {
		t.Fatalf("alt titles %q", f.AltTitles)
	}
	n := 0
	for i := 0; i < 10000; i++ {
		if !f.AddAltTitle("t" + strings.Repeat("i", i%300) + string(rune('a'+i%26))) {
			break
		}
		n++
	}
	if len(f.AltTitles) != MaxAltTitles || n > MaxAltTitles {
		t.Fatalf("%d alt titles kept after %d adds, want %d", len(f.AltTitles), n, MaxAltTitles)
	}
}

func FuzzNormalizeID(f *testing.F) {
	f.Add(IDAniList, "https://anilist.co/manga/30002")
	f.Add(IDMangaUpdates, "https://www.mangaupdates.com/series.html?id=157722")
	f.Add(IDMangaDex, "https://mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f")
	f.Fuzz(func(t *testing.T, kind, raw string) {
		id, ok := NormalizeID(kind, raw)
		if !ok {
			return
		}
		again, ok2 := NormalizeID(id.Kind, id.Value)
		if !ok2 || again != id || len(id.Value) > 36 {
			t.Fatalf("%q %q gave %+v, which normalises to %+v, %v", kind, raw, id, again, ok2)
		}
	})
}
