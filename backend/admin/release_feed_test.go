package admin_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/client"
)

// Every Lane view carries the release feed's state when the feed is on,
// and null when it is off; the state word follows the last read.
func TestLaneViewsCarryTheReleaseFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	if err := admintest.Seed(ctx, st, admintest.Now); err != nil {
		t.Fatal(err)
	}
	views := func(on bool) map[string]client.Lane {
		t.Helper()
		svc, err := admin.New(admin.Config{Store: st, Sites: admintest.Registry(t), ReleaseFeed: on, Now: func() time.Time { return admintest.Now }})
		if err != nil {
			t.Fatal(err)
		}
		ls, err := svc.LaneViews(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]client.Lane{}
		for _, l := range ls {
			out[l.Site] = l
		}
		return out
	}
	for site, l := range views(false) {
		raw, _ := json.Marshal(l)
		if l.ReleaseFeed != nil || !strings.Contains(string(raw), `"release_feed":null`) {
			t.Errorf("feed off: %s carries %s", site, raw)
		}
	}
	for site, l := range views(true) {
		if l.ReleaseFeed == nil || l.ReleaseFeed.State != client.ReleaseFeedWaiting || l.ReleaseFeed.LastReadAt != nil {
			t.Errorf("feed on, never read: %s carries %+v", site, l.ReleaseFeed)
		}
	}
	at := admintest.Now.Add(-3 * time.Minute)
	if err := st.SaveReleaseFeed(ctx, store.ReleaseFeedState{LastReadAt: &at, LastOutcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.HintReleases(ctx, "comix", nil, at, at); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveReleaseHints(ctx, []string{"mangadex"}, map[string]int{"mangadex": 4}, at); err != nil {
		t.Fatal(err)
	}
	got := views(true)
	if md := got["mangadex"].ReleaseFeed; md == nil || md.State != client.ReleaseFeedOK || md.Hinted != 4 || !md.LastReadAt.Equal(at) {
		t.Fatalf("mangadex %+v", md)
	}
	if cx := got["comix"].ReleaseFeed; cx == nil || cx.State != client.ReleaseFeedOK || cx.Hinted != 0 {
		t.Fatalf("comix %+v", cx)
	}
	if err := st.SaveReleaseFeed(ctx, store.ReleaseFeedState{LastReadAt: &at, LastOutcome: "http_error", LastReason: "HTTP 503", Failures: 2}); err != nil {
		t.Fatal(err)
	}
	if md := views(true)["mangadex"].ReleaseFeed; md.State != client.ReleaseFeedFailing || md.Hinted != 4 {
		t.Fatalf("after a failed read: %+v", md)
	}
}
