package imports_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
)

const (
	mangadexSource = 2499283573021220255 // MangaDex's English source in Mihon
	frieren        = "a1c7c817-4e59-43b7-9365-09675a149a6f"
	weebSeries     = "01J76XYCERXE60T7FKXVCCAQ0Z"
)

func decodeBackup(t *testing.T, b tachibktest.Backup) *imports.Parsed {
	t.Helper()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := imports.DecodeTachibk(bytes.NewReader(b.Gzip()), reg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A backup's tracking rows become the Item's external ids: the media id
// for AniList, MyAnimeList, Kitsu and MangaBaka (the URL when there is
// none), the base-36 id of the tracking URL for MangaUpdates.
func TestDecodeTachibkTrackingBecomesIDs(t *testing.T) {
	t.Parallel()
	p := decodeBackup(t, tachibktest.Backup{Sources: []tachibktest.Source{{Name: "MangaDex", ID: mangadexSource}},
		Manga: []tachibktest.Manga{{Source: mangadexSource, URL: "/manga/" + frieren, Title: "Frieren", Tracking: []tachibktest.Track{
			{SyncID: 2, MediaID: 118586, URL: "https://anilist.co/manga/118586"},
			{SyncID: 1, URL: "https://myanimelist.net/manga/126287/Sousou_no_Frieren"},
			{SyncID: 7, MediaID: 63762556139, URL: "https://www.mangaupdates.com/series/taikv6z/sousou-no-frieren"}, // taikv6z in base 36
			{SyncID: 3, MediaIDInt: 43045},
			{SyncID: 11, MediaID: 111541},
			{SyncID: 4, MediaID: 9}, // Shikimori: no kind
		}}}})
	if len(p.Items) != 1 {
		t.Fatalf("items %+v, unsupported %+v", p.Items, p.Unsupported)
	}
	want := []sites.ExternalID{{Kind: "al", Value: "118586"}, {Kind: "mal", Value: "126287"}, {Kind: "mu", Value: "63762556139"},
		{Kind: "kt", Value: "43045"}, {Kind: "mb", Value: "111541"}}
	if got := p.Items[0].IDs; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}

// TestDecodeTachibkDropsHostileTrackingRows: a backup is the Reader's
// upload, perhaps crafted. Ten thousand tracking rows, URLs on other
// hosts, control characters and absurd ids cost only those values: every
// manga is still imported, with the ids that hold.
func TestDecodeTachibkDropsHostileTrackingRows(t *testing.T) {
	t.Parallel()
	hostile := tachibktest.Manga{Source: mangadexSource, URL: "/manga/" + frieren, Title: "Hostile", Tracking: []tachibktest.Track{
		{SyncID: 1, URL: "https://evil.example/manga/126287"},
		{SyncID: 7, MediaID: 5, URL: "https://www.mangaupdates.com/series/tai\x01kv6z"}, // the media id stands in
		{SyncID: 3, URL: "javascript:alert(1)"},
		{SyncID: 11, MediaIDInt: -1},
	}}
	for i := 0; i < 10000; i++ {
		hostile.Tracking = append(hostile.Tracking, tachibktest.Track{SyncID: 2, MediaID: int64(i + 1)})
	}
	p := decodeBackup(t, tachibktest.Backup{Sources: []tachibktest.Source{{Name: "MangaDex", ID: mangadexSource}},
		Manga: []tachibktest.Manga{hostile, {Source: mangadexSource, URL: "/title/" + frieren, Title: "Next"}}})
	if len(p.Items) != 2 || p.Items[1].Label != "MangaDex: Next" {
		t.Fatalf("items %+v", p.Items)
	}
	want := []sites.ExternalID{{Kind: "mu_legacy", Value: "5"}, {Kind: "al", Value: "1"}} // 5 reads as a pre-2022 id
	if got := p.Items[0].IDs; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}

// TachiyomiSY's merged entries: the entry's own source is the merge, so
// its first member on a Site stands for it and the others on Sites are
// suggested; an ordinary manga's references suggest its other members.
func TestDecodeTachibkMergedReferencesSuggest(t *testing.T) {
	t.Parallel()
	const merged, weeb, other = 6969, 55, 77
	p := decodeBackup(t, tachibktest.Backup{
		Sources: []tachibktest.Source{{Name: "MangaDex", ID: mangadexSource}, {Name: "Merged source", ID: merged},
			{Name: "Weeb Central", ID: weeb}, {Name: "Some Other Source", ID: other}, {Name: "MangaPill", ID: 3}},
		Manga: []tachibktest.Manga{
			{Source: merged, URL: "/merged/1", Title: "Frieren", Merged: []tachibktest.Merged{
				{MergeURL: "/merged/1", URL: "/merged/1", SourceID: merged},
				{Info: true, MergeURL: "/merged/1", URL: "/manga/" + frieren, SourceID: mangadexSource},
				{MergeURL: "/merged/1", URL: "/series/x", SourceID: other},
				{MergeURL: "/merged/1", URL: "/series/" + weebSeries + "/frieren", SourceID: weeb},
				{MergeURL: "/merged/1", URL: "/manga/" + frieren, SourceID: mangadexSource}, // twice: once
			}, Tracking: []tachibktest.Track{{SyncID: 2, MediaID: 118586}}},
			{Source: 3, URL: "/manga/2/one-piece", Title: "One Piece", Merged: []tachibktest.Merged{
				{URL: "/manga/2/one-piece", SourceID: 3}, // itself
				{URL: "/series/" + weebSeries, SourceID: weeb},
				{URL: "https://evil.example/series/" + weebSeries, SourceID: weeb}, // another host: no Series
			}},
			{Source: merged, URL: "/merged/2", Title: "Nowhere", Merged: []tachibktest.Merged{{URL: "/series/y", SourceID: other}}},
		}})
	if len(p.Items) != 2 || len(p.Unsupported) != 1 || p.Unsupported[0].Item != "Merged source: Nowhere" {
		t.Fatalf("items %+v, unsupported %+v", p.Items, p.Unsupported)
	}
	m := p.Items[0]
	if m.URL != "https://mangadex.org/title/"+frieren || fmt.Sprint(m.Suggest) != "[https://weebcentral.com/series/"+weebSeries+"]" ||
		fmt.Sprint(m.IDs) != "[{al 118586}]" {
		t.Errorf("merged entry %+v", m)
	}
	if o := p.Items[1]; o.URL != "https://mangapill.com/manga/2/one-piece" || fmt.Sprint(o.Suggest) != "[https://weebcentral.com/series/"+weebSeries+"]" {
		t.Errorf("one piece %+v", o)
	}
}

// Issue 35 item 6: an older Tachiyomi backup names its sources only in
// the legacy list. Its MangaPill and WeebCentral manga map by name as a
// current backup's do (only MangaDex's id was known before, so they were
// refused as unknown sources).
func TestDecodeTachibkLegacySourcesKeepEveryEntry(t *testing.T) {
	t.Parallel()
	p := decodeBackup(t, tachibktest.Backup{
		LegacySources: []tachibktest.Source{{Name: "MangaPill", ID: 41}, {Name: "Weeb Central", ID: 42}, {Name: "MangaDex", ID: mangadexSource}},
		Manga: []tachibktest.Manga{
			{Source: 41, URL: "/manga/2/one-piece", Title: "One Piece"},
			{Source: 42, URL: "/series/" + weebSeries + "/frieren", Title: "Frieren"},
			{Source: mangadexSource, URL: "/manga/" + frieren, Title: "Frieren"},
		}})
	if len(p.Unsupported) != 0 || len(p.Items) != 3 {
		t.Fatalf("items %+v, unsupported %+v", p.Items, p.Unsupported)
	}
	var got []string
	for _, it := range p.Items {
		got = append(got, it.Label+" "+it.URL)
	}
	want := "MangaPill: One Piece https://mangapill.com/manga/2/one-piece|Weeb Central: Frieren https://weebcentral.com/series/" + weebSeries +
		"/frieren|MangaDex: Frieren https://mangadex.org/manga/" + frieren
	if strings.Join(got, "|") != want {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// Where both lists name a source, the current list's name stands.
	p = decodeBackup(t, tachibktest.Backup{
		Sources:       []tachibktest.Source{{Name: "MangaPill", ID: 41}},
		LegacySources: []tachibktest.Source{{Name: "Some Other Source", ID: 41}},
		Manga:         []tachibktest.Manga{{Source: 41, URL: "/manga/2/one-piece", Title: "One Piece"}}})
	if len(p.Items) != 1 || p.Items[0].Label != "MangaPill: One Piece" {
		t.Errorf("items %+v, unsupported %+v", p.Items, p.Unsupported)
	}
}
