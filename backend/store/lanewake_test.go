package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// Every write path that makes a Series due sooner wakes the Lanes through
// the 0003 triggers, and the Lanes' own stamps do not.
func TestSeriesWritesWakeTheLanes(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 64)
	ready := make(chan struct{})
	go func() {
		_ = st.ListenLaneWakes(ctx, func() { close(ready) }, func(p string) { got <- p })
	}()
	<-ready
	next := func(what string) string {
		t.Helper()
		select {
		case p := <-got:
			return p
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no wake", what)
		}
		return ""
	}
	want := func(what, payload string) {
		t.Helper()
		if p := next(what); p != payload {
			t.Fatalf("%s: wake %q, want %q", what, p, payload)
		}
	}
	// none sends a marker and expects it to be the next wake.
	none := func(what string) {
		t.Helper()
		if err := st.NotifyLaneWake(ctx, "marker"); err != nil {
			t.Fatal(err)
		}
		if p := next(what); p != "marker" {
			t.Fatalf("%s woke the Lanes: %q", what, p)
		}
	}
	r, err := st.UpsertReader(ctx, "300", "Ann", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBookmark(ctx, r.ID, "mangadex", "a", "https://m/a"); err != nil {
		t.Fatal(err)
	}
	want("a new bookmark", "mangadex|")
	if _, err := st.AddBookmark(ctx, r.ID, "mangadex", "a", "https://m/a"); err != nil {
		t.Fatal(err)
	}
	none("bookmarking a known Series")
	now := time.Now()
	if _, err := st.ApplyReads(ctx, []store.Read{{ReaderID: r.ID, Site: "comix", SeriesID: "b",
		SeriesURL: "https://c/b", Number: "3", ReadAt: now}}); err != nil {
		t.Fatal(err)
	}
	want("a Series created by a read", "comix|")
	if _, _, err := st.StampChecked(ctx, "comix", "b", now); err != nil {
		t.Fatal(err)
	}
	none("the Lane's stamp")
	if _, err := st.ForcePoll(ctx, "comix", "b", now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	want("a Forced Poll", "comix|")
	if _, _, err := st.StampChecked(ctx, "comix", "b", now.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	none("the stamp that answers the force")
	if _, err := st.Pool().Exec(ctx, `UPDATE series SET latest_checked_at = latest_checked_at - interval '2 hours' WHERE site = 'comix'`); err != nil {
		t.Fatal(err)
	}
	want("a check stamp moved back", "comix|")
	if _, err := st.Pool().Exec(ctx, `INSERT INTO series (site, series_id, url)
		SELECT 'kagane', i::text, 'u' FROM generate_series(1, 500) AS i`); err != nil {
		t.Fatal(err)
	}
	want("a bulk insert", "kagane|")
	none("a bulk insert's other rows")
}

// A holder's heartbeat and pass in flight read back; a second beat from
// another process replaces the first.
func TestBeatLane(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := st.BeatLane(ctx, "comix", "p1", at, &store.LivePass{StartedAt: at, Due: 45, Checked: 12}); err != nil {
		t.Fatal(err)
	}
	hs, err := st.LaneHolders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := hs["comix"]
	if h.Holder != "p1" || !h.SeenAt.Equal(at) || h.Pass == nil || h.Pass.Due != 45 || h.Pass.Checked != 12 || h.BeatAt.IsZero() {
		t.Fatalf("holder %+v pass %+v", h, h.Pass)
	}
	if err := st.BeatLane(ctx, "comix", "p2", at.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	hs, _ = st.LaneHolders(ctx)
	if h := hs["comix"]; h.Holder != "p2" || h.Pass != nil || !h.SeenAt.Equal(at.Add(time.Minute)) {
		t.Fatalf("after the second beat: %+v", h)
	}
}
