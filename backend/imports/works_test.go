package imports_test

import (
	"context"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store/dbtest"
)

// A file's external ids (a backup's tracking rows) are stored with source
// import once the bookmarks are in, and link the Series they share: two
// Series of one AniList id are one Work after the import, with no Site
// request. A malformed id is left out and costs nothing.
func TestImportIDsLinkWorks(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "400000000000000009", "importer", nil)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := imports.New(imports.Config{Store: st, Sites: reg})
	if err != nil {
		t.Fatal(err)
	}
	al := func(v string) []sites.ExternalID { return []sites.ExternalID{{Kind: sites.IDAniList, Value: v}} }
	p := &imports.Parsed{Kind: imports.KindTachibk, Items: []imports.Item{
		{Label: "MangaDex: Void Swell", URL: "https://mangadex.org/title/00000000-0000-4000-8000-00000000000a", IDs: al("30002")},
		{Label: "Comix: Void Swell", URL: "https://comix.to/title/zgmdj-void-swell",
			IDs: append(al("30002"), sites.ExternalID{Kind: sites.IDMangaUpdates, Value: "not an id"})},
	}}
	j, err := svc.Submit(ctx, r.ID, p)
	if err != nil || j.Added != 2 {
		t.Fatalf("import: %+v %v", j, err)
	}
	wa, err := st.WorkOf(ctx, "mangadex", "00000000-0000-4000-8000-00000000000a")
	if err != nil {
		t.Fatal(err)
	}
	if wb, err := st.WorkOf(ctx, "comix", "zgmdj-void-swell"); err != nil || wb != wa {
		t.Fatalf("comix in Work %d (%v), want %d", wb, err, wa)
	}
	ids, err := st.SeriesExternalIDs(ctx, "comix", "zgmdj-void-swell")
	if err != nil || len(ids) != 1 || ids[0].Source != "import" {
		t.Fatalf("comix ids %+v %v, want the one good AniList id from the import", ids, err)
	}
}
