package storetest_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// The factories write what their options say, through the store's own
// reads: a Series batch and its change, a Reader's bookmark and its
// change, and the filters that leave other rows alone.
func TestFactoriesWriteWhatTheOptionsSay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	storetest.Series(ctx, t, st,
		storetest.SeriesOpts{Site: "mangapill", ID: "1", CheckedAt: &at, LatestNumber: "10.5"},
		storetest.SeriesOpts{Site: "mangapill", ID: "2"},
		storetest.SeriesOpts{Site: "comix", ID: "2"})
	s, err := st.GetSeries(ctx, "mangapill", "1")
	if err != nil || s.URL != "https://mangapill.test/series/1" || s.LatestNumber != "10.5" ||
		s.LatestCheckedAt == nil || !s.LatestCheckedAt.Equal(at) {
		t.Fatalf("series 1: %+v %v", s, err)
	}
	storetest.SetSeries(ctx, t, st, storetest.SeriesSet{Site: "mangapill", Except: []string{"1"}, LatestNumber: "3", Title: "T"})
	for _, c := range []struct{ site, id, latest, title string }{
		{"mangapill", "1", "10.5", "mangapill title 1"}, {"mangapill", "2", "3", "T"}, {"comix", "2", "", "comix title 2"},
	} {
		if s, err := st.GetSeries(ctx, c.site, c.id); err != nil || s.LatestNumber != c.latest || s.Title != c.title {
			t.Errorf("%s/%s after SetSeries: %+v %v, want latest %q title %q", c.site, c.id, s, err, c.latest, c.title)
		}
	}
	ids := storetest.Readers(ctx, t, st, storetest.ReaderOpts{DiscordID: "b"}, storetest.ReaderOpts{DiscordID: "a", Name: "Ann"})
	if r, err := st.GetReaderByDiscordID(ctx, "a"); err != nil || r.ID != ids[1] || r.Name != "Ann" {
		t.Fatalf("reader a: %+v %v, ids %v", r, err, ids)
	}
	storetest.Bookmarks(ctx, t, st, storetest.BookmarkOpts{ReaderID: ids[1], Site: "mangapill", SeriesID: "2", CreatedAt: &at})
	storetest.SetBookmarks(ctx, t, st, storetest.BookmarkSet{ReaderID: ids[1], CreatedAt: storetest.At(at.Add(time.Hour))})
	marks, err := st.ListBookmarks(ctx, ids[1])
	if err != nil || len(marks) != 1 || marks[0].SeriesID != "2" || !marks[0].CreatedAt.Equal(at.Add(time.Hour)) {
		t.Fatalf("bookmarks: %+v %v", marks, err)
	}
}

// The batch factories the web benchmarks seed with write every row of a
// batch: a Series' Latest Chapter title and link, Progress, covers,
// failures (an upsert), Chapter Events, a bookmark made by a read, and
// Works whose members carry an offset and a drift.
func TestBatchFactoriesWriteEveryRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	var series []storetest.SeriesOpts
	// A Work holds one member per Site: 2 and 4 are on another Site
	// than 1 and 3.
	for _, id := range []string{"1", "2", "3", "4"} {
		site := map[bool]string{true: "mangapill", false: "comix"}[id == "1" || id == "3"]
		series = append(series, storetest.SeriesOpts{Site: site, ID: id, LatestNumber: "10",
			LatestTitle: "Ch " + id, LatestURL: "https://" + site + ".test/chapter/" + id, SeenAt: &at})
	}
	storetest.Series(ctx, t, st, series...)
	if s, err := st.GetSeries(ctx, "mangapill", "3"); err != nil || s.LatestTitle != "Ch 3" || s.LatestURL != "https://mangapill.test/chapter/3" {
		t.Fatalf("series 3's Latest Chapter: %+v %v", s, err)
	}
	rid := storetest.Readers(ctx, t, st, storetest.ReaderOpts{DiscordID: "r"})[0]
	var marks []storetest.BookmarkOpts
	for _, s := range series {
		marks = append(marks, storetest.BookmarkOpts{ReaderID: rid, Site: s.Site, SeriesID: s.ID})
	}
	storetest.Bookmarks(ctx, t, st, marks...)
	storetest.SetBookmarks(ctx, t, st, storetest.BookmarkSet{ReaderID: rid, IDs: []string{"4"}, AddedBy: "read"})
	storetest.Progress(ctx, t, st,
		storetest.ProgressOpts{ReaderID: rid, Site: "mangapill", SeriesID: "1", Number: "9.5", ReadAt: &at},
		storetest.ProgressOpts{ReaderID: rid, Site: "comix", SeriesID: "2", Number: "10", URL: "https://comix.test/chapter/2"})
	if p, err := st.GetProgress(ctx, rid, "mangapill", "1"); err != nil || p.Number != "9.5" || !p.ReadAt.Equal(at) {
		t.Fatalf("progress 1: %+v %v", p, err)
	}
	if p, err := st.GetProgress(ctx, rid, "comix", "2"); err != nil || p.Number != "10" || p.URL != "https://comix.test/chapter/2" {
		t.Fatalf("progress 2: %+v %v", p, err)
	}
	storetest.Cover(ctx, t, st, storetest.CoverOpts{Site: "mangapill", SeriesID: "1"},
		storetest.CoverOpts{Site: "comix", SeriesID: "2", ContentType: "image/webp", Body: []byte("RIFF")})
	if c, err := st.GetCover(ctx, "comix", "2"); err != nil || c.ContentType != "image/webp" || string(c.Body) != "RIFF" {
		t.Fatalf("cover 2: %+v %v", c, err)
	}
	storetest.Failure(ctx, t, st, storetest.FailureOpts{Site: "mangapill", SeriesID: "1", Since: at},
		storetest.FailureOpts{Site: "comix", SeriesID: "2", Outcome: "not_found", Since: at})
	storetest.Failure(ctx, t, st, storetest.FailureOpts{Site: "mangapill", SeriesID: "1", Outcome: "no_chapter", Since: at})
	storetest.ChapterEvents(ctx, t, st,
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: "10", Title: "Ten", URL: "https://mangapill.test/chapter/1-10", SeenAt: &at},
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: "9"})
	if es, err := st.SeriesChapters(ctx, "mangapill", "1", 10); err != nil || len(es) != 2 || es[0].Number != "10" ||
		es[0].ChapterTitle != "Ten" || !es[0].SeenAt.Equal(at) || es[1].Number != "9" || es[1].URL != "" {
		t.Fatalf("chapter events: %+v %v", es, err)
	}
	bm, err := st.ListBookmarks(ctx, rid)
	if err != nil || len(bm) != 4 {
		t.Fatalf("bookmarks: %+v %v", bm, err)
	}
	for _, b := range bm {
		want := "reader" // the default
		if b.SeriesID == "4" {
			want = "read"
		}
		if b.AddedBy != want {
			t.Errorf("bookmark %s added by %q", b.SeriesID, b.AddedBy)
		}
		if b.HasCover != (b.SeriesID == "1" || b.SeriesID == "2") {
			t.Errorf("bookmark %s has a cover: %v", b.SeriesID, b.HasCover)
		}
	}
	ids := storetest.Works(ctx, t, st,
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangapill", SeriesID: "1"}, {Site: "comix", SeriesID: "2", Offset: "-1.5", DriftSince: &at}}},
		storetest.WorkOpts{Members: []storetest.MemberOpts{{Site: "mangapill", SeriesID: "3", LinkedBy: "reader"}, {Site: "comix", SeriesID: "4"}}})
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("works %v", ids)
	}
	for i, c := range []struct{ site, id string }{{"comix", "2"}, {"mangapill", "3"}} {
		if wk, err := st.WorkOf(ctx, c.site, c.id); err != nil || wk != ids[i] {
			t.Errorf("%s/%s in Work %d (%v), want %d", c.site, c.id, wk, err, ids[i])
		}
	}
	w, err := st.ReaderWork(ctx, rid, ids[0], at.Add(store.FailingShownAfter)) // the failures are shown
	if err != nil || len(w.Members) != 2 {
		t.Fatalf("work %d: %+v %v", ids[0], w, err)
	}
	for _, m := range w.Members {
		switch m.SeriesID {
		case "1":
			if m.Offset != "0" || m.LinkedBy != "id:al" || m.DriftSince != nil || m.FailingOutcome != "no_chapter" {
				t.Errorf("member 1: %+v", m)
			}
		case "2":
			if m.Offset != "-1.5" || m.DriftSince == nil || !m.DriftSince.Equal(at) || m.FailingOutcome != "not_found" {
				t.Errorf("member 2: %+v", m)
			}
		}
	}
}

// The factories the tracker, notice and fault tests seed with: notices
// owed for chapter events (only the ones named), a tracker account
// renamed behind the product's back (its failure kept), copies of an
// import, and a Lane whose holder and passes are moved back.
func TestFactoriesForNoticesTrackersImportsAndLanes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	at := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	storetest.Series(ctx, t, st, storetest.SeriesOpts{Site: "mangapill", ID: "1"})
	rid := storetest.Readers(ctx, t, st, storetest.ReaderOpts{DiscordID: "r"})[0]
	storetest.Bookmarks(ctx, t, st, storetest.BookmarkOpts{ReaderID: rid, Site: "mangapill", SeriesID: "1", CreatedAt: storetest.At(at.Add(-time.Hour))})
	storetest.ChapterEvents(ctx, t, st,
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: "11", SeenAt: &at},
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: "12.5", SeenAt: &at},
		storetest.ChapterEventOpts{Site: "mangapill", SeriesID: "1", Number: "13", SeenAt: &at})
	storetest.Notices(ctx, t, st,
		storetest.NoticeOpts{ReaderID: rid, Site: "mangapill", SeriesID: "1", Number: "11"},
		storetest.NoticeOpts{ReaderID: rid, Site: "mangapill", SeriesID: "1", Number: "12.5"})
	var owed []string
	if _, err := st.MakeDigests(ctx, at.Add(time.Hour), 10, func(in store.DigestInput) store.DigestPlan {
		for _, n := range in.Owed {
			owed = append(owed, n.Number)
		}
		return store.DigestPlan{}
	}); err != nil {
		t.Fatal(err)
	}
	if len(owed) != 2 || owed[0] != "11" || owed[1] != "12.5" {
		t.Fatalf("owed %v, want 11 and 12.5", owed)
	}

	if err := st.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: rid, Service: "anilist", Username: "ann", Pull: true, Now: at}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetTrackerState(ctx, rid, "anilist", store.TrackerFailing, "no such user"); err != nil {
		t.Fatal(err)
	}
	storetest.SetTrackerAccount(ctx, t, st, storetest.TrackerAccountSet{ReaderID: rid, Username: "gone"})
	if a, err := st.TrackerAccount(ctx, rid, "anilist"); err != nil || a.Username != "gone" || a.State != store.TrackerFailing || a.Error != "no such user" {
		t.Fatalf("tracker account after the rename: %+v %v", a, err)
	}

	job := &store.ImportJob{ReaderID: rid, Kind: "urls", State: store.ImportDone, Total: 3, CreatedAt: at, FinishedAt: &at}
	job.AddProblem(store.ImportProblem{Item: "x", Reason: "unsupported"})
	if err := st.CreateImport(ctx, job); err != nil {
		t.Fatal(err)
	}
	storetest.CopyImport(ctx, t, st, storetest.ImportCopy{Times: 4})
	jobs, err := st.ListImports(ctx, rid)
	if err != nil || len(jobs) != 5 {
		t.Fatalf("imports %+v %v, want five", jobs, err)
	}
	for _, j := range jobs {
		if j.Total != 3 || j.State != job.State || j.UnsupportedCount != 1 || !j.CreatedAt.Equal(at) {
			t.Errorf("import %d: %+v, want a copy of %+v", j.ID, j, job)
		}
	}

	seen := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	if err := st.BeatLane(ctx, "mangapill", "A", seen, nil); err != nil {
		t.Fatal(err)
	}
	storetest.Pass(ctx, t, st, store.Pass{Site: "mangapill", StartedAt: seen, FinishedAt: seen.Add(time.Second)})
	storetest.AgeLane(ctx, t, st, storetest.LaneAge{Site: "mangapill", By: 13 * time.Hour})
	hs, err := st.LaneHolders(ctx)
	if h := hs["mangapill"]; err != nil || !h.SeenAt.Equal(seen.Add(-13*time.Hour)) || time.Since(h.BeatAt) < 13*time.Hour || time.Since(h.BeatAt) > 14*time.Hour {
		t.Fatalf("holder after 13 hours: %+v %v", h, err)
	}
	if p, err := st.LastPass(ctx, "mangapill"); err != nil || !p.StartedAt.Equal(seen.Add(-13*time.Hour)) || !p.FinishedAt.Equal(seen.Add(-13*time.Hour+time.Second)) {
		t.Fatalf("pass after 13 hours: %+v %v", p, err)
	}
}
