package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/web"
)

// A Lane's page shows the release feed's state when the feed is on, and
// nothing of it when the feed is off.
func TestLanePageShowsTheReleaseFeed(t *testing.T) {
	t.Parallel()
	off := newFixture(t, "")
	if a := off.get(t, off.login(t, off.ownerToken), "/admin/lanes/comix"); a.code != http.StatusOK || strings.Contains(a.body, "Release feed") {
		t.Fatalf("feed off: %d, the page shows the feed: %v", a.code, strings.Contains(a.body, "Release feed"))
	}
	f := newFixtureWith(t, "", func(d *web.Deps) {
		d.Admin = mustAdmin(t, admin.Config{Store: d.Store, Sites: d.Sites, ReleaseFeed: true, Now: func() time.Time { return admintest.Now }})
	})
	owner := f.login(t, f.ownerToken)
	if a := f.get(t, owner, "/admin/lanes/comix"); !strings.Contains(a.body, `<h2 id="feed-h">Release feed</h2>`) || !strings.Contains(a.body, "waiting") || !strings.Contains(a.body, "not yet") {
		t.Fatalf("feed on, never read: %s", a.body)
	}
	ctx := context.Background()
	at := admintest.Now.Add(-12 * time.Minute)
	if err := f.st.SaveReleaseFeed(ctx, store.ReleaseFeedState{LastReadAt: &at, LastOutcome: "http_error", LastReason: "HTTP 503", Failures: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SaveReleaseHints(ctx, []string{"comix"}, map[string]int{"comix": 3}, at); err != nil {
		t.Fatal(err)
	}
	a := f.get(t, owner, "/admin/lanes/comix")
	for _, s := range []string{`<span class="state fault">failing</span>`, "backs off", "3 Series made due here"} {
		if !strings.Contains(a.body, s) {
			t.Errorf("failing feed: the page lacks %q", s)
		}
	}
}
