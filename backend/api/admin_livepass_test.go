package api_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// The Lane view carries the holder's last heartbeat and, while a pass runs
// (no pass row newer than its start), the pass in flight.
func TestAdminLanePassInFlightAndLastSeen(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	ctx := context.Background()
	lane := func(site string) client.Lane {
		t.Helper()
		for _, l := range adminGet[client.LanesResponse](t, f, "/api/admin/lanes").Lanes {
			if l.Site == site {
				return l
			}
		}
		t.Fatalf("no Lane %s", site)
		return client.Lane{}
	}
	if l := lane("mangapill"); l.Pass != nil || l.LastSeenAt != nil {
		t.Fatalf("no holder yet: pass %+v seen %v", l.Pass, l.LastSeenAt)
	}
	started := admintest.Now.Add(time.Hour)
	seen := started.Add(2 * time.Minute)
	if err := f.Store.BeatLane(ctx, "mangapill", "p1", seen, &store.LivePass{StartedAt: started, Due: 45, Checked: 12}); err != nil {
		t.Fatal(err)
	}
	l := lane("mangapill")
	if l.Pass == nil || l.Pass.Due != 45 || l.Pass.Checked != 12 || !l.Pass.StartedAt.Equal(started) {
		t.Fatalf("pass in flight %+v", l.Pass)
	}
	if l.LastSeenAt == nil || !l.LastSeenAt.Equal(seen) {
		t.Fatalf("last seen %v, want %v", l.LastSeenAt, seen)
	}
	// Once a pass row at or after its start exists, the in-flight pass is
	// over even if the holder died before clearing it.
	if _, err := f.Store.InsertPass(ctx, store.Pass{Site: "mangapill", StartedAt: started, FinishedAt: seen, Due: 45, Checked: 45}); err != nil {
		t.Fatal(err)
	}
	if l := lane("mangapill"); l.Pass != nil || l.LastSeenAt == nil {
		t.Fatalf("after the pass row: pass %+v seen %v", l.Pass, l.LastSeenAt)
	}
	if err := f.Store.BeatLane(ctx, "mangapill", "p1", seen, nil); err != nil {
		t.Fatal(err)
	}
	if l := lane("mangapill"); l.Pass != nil {
		t.Fatalf("between passes: %+v", l.Pass)
	}
}
