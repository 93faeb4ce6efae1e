package tachibk_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/imports/tachibk/tachibktest"
)

// readOne reads a backup of the one manga m.
func readOne(t *testing.T, m tachibktest.Manga, lim tachibk.Limits) tachibk.Manga {
	t.Helper()
	b, err := tachibk.Read(bytes.NewReader(tachibktest.Backup{Manga: []tachibktest.Manga{m}}.Gzip()), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Manga) != 1 {
		t.Fatalf("%d manga", len(b.Manga))
	}
	return b.Manga[0]
}

// Tracking rows of the five trackers the product links on are kept, the
// first of each tracker, with the legacy Int media id winning when set
// (as Mihon restores it); other trackers' rows are skipped.
func TestReadKeepsTrackingRows(t *testing.T) {
	t.Parallel()
	m := readOne(t, tachibktest.Manga{Source: 1, URL: "/m", Tracking: []tachibktest.Track{
		{SyncID: 1, MediaID: 186063, URL: "https://myanimelist.net/manga/186063"},
		{SyncID: 2, MediaID: 999, MediaIDInt: 191071},
		{SyncID: 2, MediaID: 5},  // a second AniList row: the first stands
		{SyncID: 4, MediaID: 77}, // Shikimori: not linked on
		{SyncID: 7, MediaID: 61184223817, URL: "https://www.mangaupdates.com/series/taikv6z/creating-hidden-endings"},
		{SyncID: 3, MediaIDInt: -4}, // a negative id is no id
		{SyncID: 11, MediaID: 111541},
	}}, tachibk.Limits{})
	want := []tachibk.Tracking{
		{SyncID: tachibk.SyncMyAnimeList, MediaID: 186063, URL: "https://myanimelist.net/manga/186063"},
		{SyncID: tachibk.SyncAniList, MediaID: 191071},
		{SyncID: tachibk.SyncMangaUpdates, MediaID: 61184223817, URL: "https://www.mangaupdates.com/series/taikv6z/creating-hidden-endings"},
		{SyncID: tachibk.SyncKitsu},
		{SyncID: tachibk.SyncMangaBaka, MediaID: 111541},
	}
	if fmt.Sprint(m.Tracking) != fmt.Sprint(want) {
		t.Fatalf("tracking %+v\nwant     %+v", m.Tracking, want)
	}
}

// TachiyomiSY's merged references are kept: source and URL.
func TestReadKeepsMergedReferences(t *testing.T) {
	t.Parallel()
	m := readOne(t, tachibktest.Manga{Source: 6969, URL: "merge://1", Merged: []tachibktest.Merged{
		{MergeURL: "merge://1", URL: "merge://1", SourceID: 6969},
		{Info: true, MergeURL: "merge://1", URL: "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f", SourceID: 2499283573021220255},
		{MergeURL: "merge://1", URL: "", SourceID: 5}, // no URL: nothing to suggest
	}}, tachibk.Limits{})
	want := []tachibk.Reference{{Source: 6969, URL: "merge://1"}, {Source: 2499283573021220255, URL: "/manga/a1c7c817-4e59-43b7-9365-09675a149a6f"}}
	if fmt.Sprint(m.Merged) != fmt.Sprint(want) {
		t.Fatalf("merged %+v, want %+v", m.Merged, want)
	}
}

// TestReadBoundsTrackingAndMerged: a manga of ten thousand tracking rows
// and ten thousand merged references, with a megabyte URL in both, keeps
// one row per tracker and MaxMerged references, drops the long URLs, and
// still reads the rest of the manga.
func TestReadBoundsTrackingAndMerged(t *testing.T) {
	t.Parallel()
	long := "https://anilist.co/manga/1/" + strings.Repeat("a", 1<<20)
	m := tachibktest.Manga{Source: 1, URL: "/m", Title: "Kept",
		Chapters: []tachibktest.Chapter{{URL: "/c/9", Read: true, Number: 9}}}
	m.Tracking = append(m.Tracking, tachibktest.Track{SyncID: 2, MediaID: 30002, URL: long})
	m.Merged = append(m.Merged, tachibktest.Merged{URL: long, SourceID: 1})
	for i := 0; i < 10000; i++ {
		m.Tracking = append(m.Tracking, tachibktest.Track{SyncID: 2 + 2*(i%2), MediaID: int64(i + 1), URL: "https://anilist.co/manga/x"})
		m.Merged = append(m.Merged, tachibktest.Merged{URL: fmt.Sprintf("/manga/%d", i), SourceID: int64(i)})
	}
	got := readOne(t, m, tachibk.Limits{})
	if got.Title != "Kept" || got.Read.Number != 9 {
		t.Fatalf("the manga was not read: %+v", got)
	}
	if len(got.Tracking) != 1 || got.Tracking[0] != (tachibk.Tracking{SyncID: 2, MediaID: 30002}) {
		t.Errorf("tracking %+v, want the first AniList row without its long URL", got.Tracking)
	}
	if len(got.Merged) != tachibk.MaxMerged || got.Merged[0].URL != "/manga/0" {
		t.Errorf("%d merged references, first %+v; want %d from /manga/0", len(got.Merged), got.Merged[0], tachibk.MaxMerged)
	}
}

// Tracking and merged-reference URLs count against MaxText like every
// other text kept.
func TestReadCountsTrackingTextAgainstMaxText(t *testing.T) {
	t.Parallel()
	for name, m := range map[string]tachibktest.Manga{
		"tracking": {Source: 1, URL: "/m", Tracking: []tachibktest.Track{{SyncID: 2, URL: "https://anilist.co/manga/" + strings.Repeat("1", 200)}}},
		"merged":   {Source: 1, URL: "/m", Merged: []tachibktest.Merged{{URL: "/manga/" + strings.Repeat("1", 200), SourceID: 3}}},
	} {
		_, err := tachibk.Read(bytes.NewReader(tachibktest.Backup{Manga: []tachibktest.Manga{m}}.Gzip()), tachibk.Limits{MaxText: 100})
		if !errors.Is(err, tachibk.ErrTooLarge) {
			t.Errorf("%s: err %v, want ErrTooLarge past MaxText", name, err)
		}
	}
}

// Older Tachiyomi backups list their sources only in the legacy field
// (Backup 100), whose entries number their fields from 0; they are read as
// sources, marked Legacy.
func TestReadLegacySources(t *testing.T) {
	t.Parallel()
	raw := tachibktest.Backup{
		LegacySources: []tachibktest.Source{{Name: "MangaPill", ID: 41}, {Name: "Weeb Central", ID: 42}, {ID: 43}},
		Manga:         []tachibktest.Manga{{Source: 41, URL: "/manga/2/one-piece"}},
	}.Gzip()
	b, err := tachibk.Read(bytes.NewReader(raw), tachibk.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []tachibk.Source{{Name: "MangaPill", ID: 41, Legacy: true}, {Name: "Weeb Central", ID: 42, Legacy: true}, {ID: 43, Legacy: true}}
	if fmt.Sprint(b.Sources) != fmt.Sprint(want) {
		t.Fatalf("sources %+v, want %+v", b.Sources, want)
	}
	// Field number 0 stays refused everywhere else.
	bad := entry(1, entry(0, []byte("x")))
	if _, err := tachibk.Read(bytes.NewReader(bad), tachibk.Limits{}); !errors.Is(err, tachibk.ErrMalformed) {
		t.Errorf("a manga with field 0: err %v, want ErrMalformed", err)
	}
}

// A tracking row, merged reference or legacy source entry that does not
// parse (a fork's own field under the same number, or damage) is dropped
// alone: such backups imported before these fields were read, and still do.
func TestReadDropsDamagedIDEntriesAlone(t *testing.T) {
	t.Parallel()
	damaged := []byte{0xff} // a varint that never ends
	good := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 2)
	good = protowire.AppendVarint(protowire.AppendTag(good, 100, protowire.VarintType), 30002)
	var manga []byte
	manga = protowire.AppendVarint(protowire.AppendTag(manga, 1, protowire.VarintType), 41)
	manga = protowire.AppendString(protowire.AppendTag(manga, 2, protowire.BytesType), "/m")
	manga = append(manga, entry(18, damaged)...)
	manga = append(manga, entry(600, damaged)...)
	manga = append(manga, entry(18, good)...)
	legacy := protowire.AppendString(protowire.AppendTag(nil, 0, protowire.BytesType), "MangaPill")
	legacy = protowire.AppendVarint(protowire.AppendTag(legacy, 1, protowire.VarintType), 41)
	raw := append(append(entry(100, damaged), entry(100, legacy)...), entry(1, manga)...)
	b, err := tachibk.Read(bytes.NewReader(gz(raw)), tachibk.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Manga) != 1 || b.Manga[0].URL != "/m" || fmt.Sprint(b.Manga[0].Tracking) != "[{2 30002 }]" || len(b.Manga[0].Merged) != 0 {
		t.Errorf("manga %+v", b.Manga)
	}
	if fmt.Sprint(b.Sources) != fmt.Sprint([]tachibk.Source{{Name: "MangaPill", ID: 41, Legacy: true}}) {
		t.Errorf("sources %+v", b.Sources)
	}
}
