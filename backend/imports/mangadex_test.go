package imports_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
	"mangabookmark/backend/store/dbtest"
)

// A public MangaDex list is read from (simulated) MangaDex through the
// plain route by the import service, then imported like any list.
func TestImportMangaDexList(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 20})
	reg := simtest.Registry(t, sim)
	st := dbtest.New(t)
	r, err := st.UpsertReader(context.Background(), "400000000000000001", "lister", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	md := reg.Get("mangadex")
	svc, err := imports.New(imports.Config{Store: st, Sites: reg, Now: func() time.Time { return now },
		MangaDexList: imports.MangaDexListReader(md, reg.Pacer(md.Name), sitestest.Plain(t, sites.PlainOptions{}), lanes.RealClock{})})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	submit := func(id string) int64 {
		t.Helper()
		p, err := imports.DecodeJSON(strings.NewReader(`{"mangadex_list":"https://mangadex.org/list/` + id + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		j, err := svc.Submit(ctx, r.ID, p)
		if err != nil || j.State != "running" || j.Total != 0 {
			t.Fatalf("submit: %+v %v", j, err)
		}
		return j.ID
	}
	good, missing := submit(sim.MangaDexListID(5)), submit("0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e")
	if err := svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	j, err := st.GetImport(ctx, r.ID, good, true)
	if err != nil {
		t.Fatal(err)
	}
	if j.State != "done" || j.Total != 5 || j.Added != 5 || len(j.Unsupported) != 0 {
		t.Fatalf("list import: %+v", j)
	}
	if want := sim.SeriesID("mangadex", 0); j.Entries[0].SeriesID != want || j.Entries[0].Site != "mangadex" {
		t.Errorf("first entry %+v, want mangadex %s", j.Entries[0], want)
	}
	if hits := sim.Hits("mangadex"); hits != 2 {
		t.Errorf("%d requests to MangaDex, want one per list", hits)
	}
	f, err := st.GetImport(ctx, r.ID, missing, false)
	if err != nil {
		t.Fatal(err)
	}
	if f.State != "failed" || len(f.Unsupported) != 1 || !strings.Contains(f.Unsupported[0].Reason, "no public list with that id") {
		t.Fatalf("missing list: %+v", f)
	}
	if f.Total != f.Added+f.Already+f.Waiting+len(f.Unsupported) {
		t.Errorf("missing list: total %d, want added+already+waiting+unsupported (docs/api.md): %+v", f.Total, f)
	}
	// Taken once: nothing is due any more.
	if err := svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if hits := sim.Hits("mangadex"); hits != 2 {
		t.Errorf("a finished list was read again (%d requests)", hits)
	}
}

// A MangaDex list import that fails keeps docs/api.md's sum: its one item,
// the list, is unsupported and counted in total (it was 0 of 1).
func TestFailedMangaDexListCountsItsItem(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	st := dbtest.New(t)
	ctx := context.Background()
	r, err := st.UpsertReader(ctx, "400000000000000002", "lister", nil)
	if err != nil {
		t.Fatal(err)
	}
	// No MangaDexList: this server does not read lists, so the job fails.
	svc, err := imports.New(imports.Config{Store: st, Sites: reg})
	if err != nil {
		t.Fatal(err)
	}
	p, err := imports.DecodeJSON(strings.NewReader(`{"mangadex_list":"https://mangadex.org/list/0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e"}`))
	if err != nil {
		t.Fatal(err)
	}
	j, err := svc.Submit(ctx, r.ID, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetImport(ctx, r.ID, j.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != "failed" || len(got.Unsupported) != 1 || got.Unsupported[0].Reason != "this server does not read MangaDex lists" {
		t.Fatalf("a list this server cannot read: %+v", got)
	}
	if got.Total != 1 || got.Added+got.Already+got.Waiting+len(got.Unsupported) != got.Total {
		t.Errorf("total %d, added %d, already %d, waiting %d, unsupported %d: want total 1, the sum of the others",
			got.Total, got.Added, got.Already, got.Waiting, len(got.Unsupported))
	}
}
