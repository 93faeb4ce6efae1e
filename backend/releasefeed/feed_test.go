package releasefeed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
)

const (
	muA = 60143657332 // rmnzb04
	muB = 76513411164 // z5e3xwc
	muX = 62535527613 // sq81dx9: nobody follows it
)

// A release of a followed story hints its Series on every Site it is on
// (a Site's own mu id, and the other members of its Work); a release of a
// story nobody follows hints nothing; a release whose number is not above
// the stored Latest Chapter hints nothing (as a listing line).
func TestReleaseHintsTheFollowedStoryOnEverySite(t *testing.T) {
	t.Parallel()
	w := newWorld(t,
		releasefeedtest.Row{ID: 103, SeriesID: muA, Chapter: "46"},
		releasefeedtest.Row{ID: 102, SeriesID: muX, Chapter: "9"},
		releasefeedtest.Row{ID: 101, SeriesID: muB, Chapter: "7"})
	w.follow(t, "mangadex", "md-a", "45", fmt.Sprint(muA))
	w.follow(t, "comix", "cx-a", "45", fmt.Sprint(muA)) // linked to md-a by the shared id
	w.follow(t, "kagane", "kg-b", "7", fmt.Sprint(muB)) // already has chapter 7
	w.follow(t, "weebcentral", "wc-x", "1", "")         // no id: the release of muX is not its
	r := w.run(t)
	if !r.Ran || r.Outcome != releasefeed.OutcomeOK || r.Releases != 3 || r.Pages != 1 {
		t.Fatalf("read %+v", r)
	}
	for _, s := range []struct{ site, id string }{{"mangadex", "md-a"}, {"comix", "cx-a"}} {
		if !w.hinted(t, s.site, s.id, t0) {
			t.Errorf("%s/%s was not hinted (checked %v)", s.site, s.id, w.checked(t, s.site, s.id))
		}
	}
	for _, s := range []struct{ site, id string }{{"kagane", "kg-b"}, {"weebcentral", "wc-x"}} {
		if w.hinted(t, s.site, s.id, t0) {
			t.Errorf("%s/%s was hinted", s.site, s.id)
		}
	}
	if r.Hinted["mangadex"] != 1 || r.Hinted["comix"] != 1 || r.Hinted["kagane"] != 0 {
		t.Errorf("hinted %v", r.Hinted)
	}
	sites, err := w.st.ReleaseFeedSites(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c := sites["comix"]; c.Hinted != 1 || c.HintedAt == nil || !c.HintedAt.Equal(t0) {
		t.Errorf("comix feed row %+v", c)
	}
	if k := sites["kagane"]; k.Hinted != 0 || k.HintedAt != nil {
		t.Errorf("kagane feed row %+v", k)
	}
	st := w.state(t)
	if st.LastReadAt == nil || st.LastOutcome != "ok" || st.Failures != 0 || len(st.Seen) != 3 || st.NextAt == nil ||
		!st.NextAt.Equal(t0.Add(releasefeed.DefaultEvery)) {
		t.Errorf("state %+v", st)
	}
}

// The feed's pace: a read within Every of the last reads nothing; a
// release seen at the last read never hints again, while a new one does,
// even without a number once a read has something to compare with; a
// bare release on a first read does not (the whole day would look new).
func TestTheFeedPacesAndNeverHintsAReleaseTwice(t *testing.T) {
	t.Parallel()
	w := newWorld(t, releasefeedtest.Row{ID: 10, SeriesID: muA, Chapter: ""})
	w.follow(t, "mangadex", "md-a", "45", fmt.Sprint(muA))
	before := w.checked(t, "mangadex", "md-a")
	if r := w.run(t); !r.Ran || r.Hinted["mangadex"] != 0 {
		t.Fatalf("first read %+v", r)
	}
	if !w.checked(t, "mangadex", "md-a").Equal(before) {
		t.Fatal("a bare release hinted on the first read")
	}
	w.clock.Advance(releasefeed.DefaultEvery - time.Second)
	if r := w.run(t); r.Ran || r.Wait != time.Second {
		t.Fatalf("a read within Every: %+v", r)
	}
	if n := len(w.mu.Requests()); n != 1 {
		t.Fatalf("%d requests, want the first read's one", n)
	}
	w.clock.Advance(time.Second)
	w.mu.SetRows(releasefeedtest.Row{ID: 11, SeriesID: muA, Chapter: "46"}, releasefeedtest.Row{ID: 10, SeriesID: muA, Chapter: ""})
	at := w.clock.Now()
	if r := w.run(t); !r.Ran || r.Hinted["mangadex"] != 1 {
		t.Fatalf("second read %+v", r)
	}
	if !w.hinted(t, "mangadex", "md-a", at) {
		t.Fatal("the new release did not hint")
	}
	// The Lane reads the Series (its check time moves to now), and the
	// same releases are listed again: nothing hints.
	if _, _, err := w.st.StampChecked(context.Background(), "mangadex", "md-a", at); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(releasefeed.DefaultEvery)
	if r := w.run(t); !r.Ran || r.Hinted["mangadex"] != 0 {
		t.Fatalf("third read %+v", r)
	}
	// A bare release (a volume, an extra) new since the last read hints.
	w.mu.SetRows(releasefeedtest.Row{ID: 12, SeriesID: muA, Chapter: "Extra"}, releasefeedtest.Row{ID: 11, SeriesID: muA, Chapter: "46"})
	w.clock.Advance(releasefeed.DefaultEvery)
	if r := w.run(t); !r.Ran || r.Hinted["mangadex"] != 1 {
		t.Fatalf("fourth read %+v", r)
	}
}

// Paging: the first request names no page and asks for the metadata that
// carries the series id; the next pages follow the page the answer names;
// a later read stops at the first page whose releases were all seen.
func TestPagingFollowsTheAnswerAndStopsAtTheLastRead(t *testing.T) {
	t.Parallel()
	var rows []releasefeedtest.Row
	for i := 60; i >= 1; i-- {
		rows = append(rows, releasefeedtest.Row{ID: int64(1000 + i), SeriesID: int64(900000000 + i), Chapter: "1"})
	}
	rows[55].SeriesID = muA // on page 3
	w := newWorld(t, rows...)
	w.follow(t, "comix", "cx-a", "0", fmt.Sprint(muA))
	r := w.run(t)
	if r.Pages != 3 || r.Releases != 60 || r.Hinted["comix"] != 1 {
		t.Fatalf("read %+v", r)
	}
	q := w.mu.Requests()
	if len(q) != 3 || q[0].Has("page") || q[1].Get("page") != "2" || q[2].Get("page") != "3" {
		t.Fatalf("requests %v", q)
	}
	for _, v := range q {
		if v.Get("include_metadata") != "true" {
			t.Fatalf("a request without the metadata: %v", v)
		}
	}
	// Two new releases on top: page 2 holds only releases seen, so the
	// read stops there.
	w.mu.SetRows(append([]releasefeedtest.Row{{ID: 2001, SeriesID: 5, Chapter: "2"}, {ID: 2002, SeriesID: 6, Chapter: "2"}}, rows...)...)
	w.clock.Advance(releasefeed.DefaultEvery)
	if r := w.run(t); r.Pages != 2 || r.Releases != 50 {
		t.Fatalf("second read %+v", r)
	}
	if st := w.state(t); len(st.Seen) != 62 || st.Seen[0] != 2001 {
		t.Fatalf("seen %d ids, first %v", len(st.Seen), st.Seen[:1])
	}
}

// Releases dated before yesterday end the read: public clients page
// until the dates fall below the day they want.
func TestOldReleasesEndTheRead(t *testing.T) {
	t.Parallel()
	var rows []releasefeedtest.Row
	for i := 0; i < 100; i++ {
		d := "2026-12-06"
		if i >= 30 {
			d = "2026-12-04"
		}
		rows = append(rows, releasefeedtest.Row{ID: int64(5000 - i), SeriesID: int64(i + 1), Chapter: "1", Date: d})
	}
	w := newWorld(t, rows...)
	if r := w.run(t); r.Pages != 2 || r.Overflow {
		t.Fatalf("read %+v", r)
	}
}
