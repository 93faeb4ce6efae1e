package imports_test

import (
	"bytes"
	"context"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A file's external ids (a backup's tracking rows) are stored with source
// import, as the importing Reader's word, once the bookmarks are in, and
// link the Series they share in that Reader's library: two Series of one
// AniList id are one Work for the importer after the import, with no Site
// request, and for no other Reader. A malformed id is left out and costs
// nothing.
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
	wa, err := st.ReaderWorkOf(ctx, r.ID, "mangadex", "00000000-0000-4000-8000-00000000000a")
	if err != nil {
		t.Fatal(err)
	}
	if wb, err := st.ReaderWorkOf(ctx, r.ID, "comix", "zgmdj-void-swell"); err != nil || wb != wa {
		t.Fatalf("comix in Work %d (%v), want %d", wb, err, wa)
	}
	if wb, err := st.WorkOf(ctx, "comix", "zgmdj-void-swell"); err == nil {
		t.Fatalf("the importer's ids made comix a shared member of Work %d", wb)
	}
	ids, err := st.SeriesExternalIDs(ctx, r.ID, "comix", "zgmdj-void-swell")
	if err != nil || len(ids) != 1 || ids[0].Source != store.IDMine {
		t.Fatalf("comix ids %+v %v, want the one good AniList id from the import, the importer's", ids, err)
	}
}

// The JSON export carries each bookmark's Work and external ids, and
// importing it into another server links the same Series again.
func TestExportImportRoundTripsIDs(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	from, to := dbtest.New(t), dbtest.New(t)
	var readers [2]int64
	for i, st := range []*store.Store{from, to} {
		r, err := st.UpsertReader(ctx, "400000000000000010", "mover", nil)
		if err != nil {
			t.Fatal(err)
		}
		readers[i] = r.ID
	}
	svc, err := imports.New(imports.Config{Store: from, Sites: reg})
	if err != nil {
		t.Fatal(err)
	}
	al := []sites.ExternalID{{Kind: sites.IDAniList, Value: "30002"}}
	if _, err := svc.Submit(ctx, readers[0], &imports.Parsed{Kind: imports.KindTachibk, Items: []imports.Item{
		{Label: "a", URL: "https://mangadex.org/title/00000000-0000-4000-8000-00000000000a", IDs: al},
		{Label: "b", URL: "https://comix.to/title/zgmdj-void-swell", IDs: al},
	}}); err != nil {
		t.Fatal(err)
	}
	exp, err := imports.ExportOf(ctx, from, readers[0])
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := imports.WriteJSON(&buf, exp); err != nil {
		t.Fatal(err)
	}
	for _, row := range exp.Bookmarks {
		if row.WorkID == nil || len(row.IDs) != 1 || row.IDs[0] != (imports.ExportID{Kind: "al", Value: "30002"}) {
			t.Fatalf("export row %+v: want its work_id and its AniList id", row)
		}
	}
	p, err := imports.DecodeJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := imports.New(imports.Config{Store: to, Sites: reg})
	if err != nil {
		t.Fatal(err)
	}
	if j, err := back.Submit(ctx, readers[1], p); err != nil || j.Added != 2 {
		t.Fatalf("import of the export: %+v %v", j, err)
	}
	wa, err := to.ReaderWorkOf(ctx, readers[1], "mangadex", "00000000-0000-4000-8000-00000000000a")
	if err != nil {
		t.Fatal(err)
	}
	if wb, err := to.ReaderWorkOf(ctx, readers[1], "comix", "zgmdj-void-swell"); err != nil || wb != wa {
		t.Fatalf("after the round trip comix is in Work %d (%v), want %d", wb, err, wa)
	}
}
