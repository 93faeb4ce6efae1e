package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/api"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
)

func TestNoticesShowsReaderDeliveryHealth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	svc, err := readernotice.New(readernotice.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Config{Store: st, Auth: apitest.Auth{}, ReaderNotices: svc})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	now := time.Now()
	readers := storetest.Readers(ctx, t, st, storetest.ReaderOpts{DiscordID: "1"}, storetest.ReaderOpts{DiscordID: "2"}, storetest.ReaderOpts{DiscordID: "3"})
	storetest.Series(ctx, t, st, storetest.SeriesOpts{Site: "mangapill", ID: "a", URL: "https://mangapill.com/manga/a"})
	for _, r := range readers {
		storetest.Bookmarks(ctx, t, st, storetest.BookmarkOpts{ReaderID: r, Site: "mangapill", SeriesID: "a", CreatedAt: storetest.At(now.Add(-24 * time.Hour))})
	}
	for i, r := range readers { // Reader 1's tracker is ok; 2's and 3's refused their tokens
		if err := st.PutTrackerSettings(ctx, store.TrackerSettings{ReaderID: r, Service: "anilist", Username: fmt.Sprint("u", r), Pull: true, Now: now}); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			if err := st.SetTrackerState(ctx, r, "anilist", store.TrackerReconnect, "token refused"); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, n := range []string{"1", "2"} {
		if _, err := st.RecordOK(ctx, "mangapill", "a", store.ReadFacts{Number: n}, now); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range readers {
		outlet := "ntfy" // Readers 1 and 2; Reader 3's webhook fails, though it sent once
		if i == 2 {
			outlet = "webhook"
		}
		storetest.Outlet(ctx, t, st, storetest.OutletOpts{ReaderID: r, Outlet: outlet, FailingSince: &now, LastError: "HTTP 500"})
	}
	storetest.Delivery(ctx, t, st, storetest.DeliveryOpts{ReaderID: readers[2], Outlet: "webhook", CreatedAt: &now, SentAt: &now})

	env := map[string]string{"MBCTL_SERVER": hs.URL, "MBCTL_TOKEN": apitest.OwnerToken}
	r := mbctl(t, env, t.TempDir(), "notices")
	if r.code != 0 {
		t.Fatalf("mbctl notices = %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"Reader notices: 3 owed, 1 sent in 24h", "ntfy", "webhook", "FAILING FOR READERS",
		"Trackers: 1 ok, 2 reconnect, 0 failing, 0 off"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mbctl notices lacks %q:\n%s", want, r.stdout)
		}
	}
	found := false
	for _, l := range strings.Split(r.stdout, "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "ntfy" && f[1] == "2" {
			found = true
		}
	}
	if !found {
		t.Errorf("ntfy should fail for 2 Readers:\n%s", r.stdout)
	}
	r = mbctl(t, env, t.TempDir(), "--json", "notices")
	var rep client.NoticesResponse
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Readers == nil || rep.Readers.Owed != 3 ||
		len(rep.Readers.FailingOutlets) != 2 || rep.Readers.FailingOutlets[0] != (client.FailingOutlet{Outlet: "ntfy", Readers: 2}) ||
		rep.Trackers == nil || *rep.Trackers != (client.TrackerStates{OK: 1, Reconnect: 2}) {
		t.Fatalf("--json notices: %v %s", err, r.stdout)
	}
}
