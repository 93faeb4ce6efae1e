package imports_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// serviceEnv is an import Service over a fresh database with the given
// Reader limits, one Reader, and a clock the test moves (the limits'
// allowance refills on the same clock).
type serviceEnv struct {
	t      *testing.T
	st     *store.Store
	svc    *imports.Service
	now    time.Time
	reader int64
}

func newServiceEnv(t *testing.T, limits store.ReaderLimits) *serviceEnv {
	t.Helper()
	e := &serviceEnv{t: t, st: dbtest.New(t), now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	now := func() time.Time { return e.now }
	e.st.SetReaderLimits(limits)
	e.st.SetClock(now)
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.svc, err = imports.New(imports.Config{Store: e.st, Sites: reg, Now: now, Every: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	r, err := e.st.UpsertReader(context.Background(), "400000000000000077", "importer", nil)
	if err != nil {
		t.Fatal(err)
	}
	e.reader = r.ID
	return e
}

// submit imports n new mangapill Series as a list of URLs.
func (e *serviceEnv) submit(n int) store.ImportJob {
	e.t.Helper()
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("https://mangapill.com/manga/%d/series-%d", 2000+i, i)
	}
	p, err := imports.FromLines(strings.Join(lines, "\n"))
	if err != nil {
		e.t.Fatal(err)
	}
	j, err := e.svc.Submit(context.Background(), e.reader, p)
	if err != nil {
		e.t.Fatal(err)
	}
	return j
}

// job reads the import back as stored.
func (e *serviceEnv) job(id int64) store.ImportJob {
	e.t.Helper()
	j, err := e.st.GetImport(context.Background(), e.reader, id, true)
	if err != nil {
		e.t.Fatal(err)
	}
	return j
}

// pending counts the import's entries still to add.
func pending(j store.ImportJob) int {
	n := 0
	for _, e := range j.Entries {
		if e.State == store.EntryPending {
			n++
		}
	}
	return n
}

func (e *serviceEnv) runOnce() {
	e.t.Helper()
	if err := e.svc.RunOnce(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// An import past the hourly allowance of new Series waits: the allowance's
// worth is added now, the rest is counted waiting with the time the
// allowance admits it, and RunOnce takes it up then (not before).
func TestSubmitWaitsForTheAllowance(t *testing.T) {
	t.Parallel()
	e := newServiceEnv(t, store.ReaderLimits{NewSeriesPerHour: 3, MaxBookmarks: 100})
	j := e.submit(5)
	want := e.now.Add(40 * time.Minute) // two more at three an hour
	if j.State != store.ImportWaiting || j.Added != 3 || j.Waiting != 2 || j.NextAt == nil || !j.NextAt.Equal(want) {
		t.Fatalf("submitted: %s added %d waiting %d next %v, want waiting 3/2 next %v", j.State, j.Added, j.Waiting, j.NextAt, want)
	}
	if got := e.job(j.ID); got.State != store.ImportWaiting || got.Waiting != 2 || pending(got) != 2 {
		t.Fatalf("stored: %s waiting %d pending %d", got.State, got.Waiting, pending(got))
	}
	e.now = e.now.Add(39 * time.Minute)
	e.runOnce()
	if got := e.job(j.ID); got.Added != 3 || got.Waiting != 2 {
		t.Fatalf("resumed before next_at: added %d waiting %d", got.Added, got.Waiting)
	}
	e.now = want
	e.runOnce()
	got := e.job(j.ID)
	if got.State != store.ImportDone || got.Added != 5 || got.Waiting != 0 || got.NextAt != nil || got.FinishedAt == nil || !got.FinishedAt.Equal(want) {
		t.Fatalf("after the refill: %s added %d waiting %d next %v finished %v", got.State, got.Added, got.Waiting, got.NextAt, got.FinishedAt)
	}
}

// The bookmark cap does not wait: what is over it is listed unsupported
// with the one bookmark-cap sentence, and the import is done.
func TestSubmitOverTheBookmarkCap(t *testing.T) {
	t.Parallel()
	limits := store.ReaderLimits{NewSeriesPerHour: 100, MaxBookmarks: 3}
	e := newServiceEnv(t, limits)
	j := e.submit(5)
	if j.State != store.ImportDone || j.Added != 3 || j.Waiting != 0 || len(j.Unsupported) != 2 {
		t.Fatalf("%s added %d waiting %d unsupported %v", j.State, j.Added, j.Waiting, j.Unsupported)
	}
	if want := "over the limit: " + limits.BookmarkCapReason(); j.Unsupported[0].Reason != want {
		t.Errorf("reason %q, want %q", j.Unsupported[0].Reason, want)
	}
	// The same list again: all already there or still over the cap.
	if again := e.submit(5); again.Added != 0 || again.Already != 3 || len(again.Unsupported) != 2 {
		t.Errorf("again: added %d already %d unsupported %d", again.Added, again.Already, len(again.Unsupported))
	}
}

// Stop before Start returns at once; a second Start runs no second loop
// (the first used to leak); Stop ends the loop; none leaves a goroutine.
// Not parallel, so no other test's goroutines come and go during the check.
func TestStartTwiceAndStopLeaveNoGoroutines(t *testing.T) {
	e := newServiceEnv(t, store.DefaultReaderLimits)
	e.svc.Stop()
	opts := goleak.IgnoreCurrent()
	e.svc.Start(context.Background())
	e.svc.Start(context.Background())
	e.svc.Stop()
	e.svc.Stop()
	goleak.VerifyNone(t, opts)
}
