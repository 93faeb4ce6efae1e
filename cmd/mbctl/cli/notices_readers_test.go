package cli_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
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
	srv, err := api.New(api.Config{Store: st, Auth: admintest.Auth{}, ReaderNotices: svc})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	now := time.Now()
	for _, id := range []string{"1", "2", "3"} {
		r, err := st.UpsertReader(ctx, id, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddBookmark(ctx, r.ID, "mangapill", "a", "https://mangapill.com/manga/a"); err != nil {
			t.Fatal(err)
		}
	}
	exec := func(q string, args ...any) {
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`UPDATE bookmarks SET created_at = now() - interval '1 day'`)
	exec(`INSERT INTO tracker_accounts (reader_id, service, username, pull, state) SELECT id, 'anilist', 'u' || id, true,
		CASE discord_id WHEN '1' THEN 'ok' ELSE 'reconnect' END FROM readers WHERE discord_id IN ('1', '2', '3')`)
	for _, n := range []string{"1", "2"} {
		if _, err := st.RecordOK(ctx, "mangapill", "a", store.ReadFacts{Number: n}, now); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO notify_outlets (reader_id, outlet, failing_since, last_error) SELECT id, 'ntfy', now(), 'HTTP 500' FROM readers WHERE discord_id IN ('1', '2')`)
	exec(`INSERT INTO notify_outlets (reader_id, outlet, failing_since, last_error) SELECT id, 'webhook', now(), 'HTTP 500' FROM readers WHERE discord_id = '3'`)
	exec(`INSERT INTO notice_deliveries (reader_id, outlet, payload, first_seen, created_at, next_at, sent_at)
		SELECT id, 'webhook', '{}', now(), now(), now(), now() FROM readers WHERE discord_id = '3'`)

	env := map[string]string{"MBCTL_SERVER": hs.URL, "MBCTL_TOKEN": admintest.OwnerToken}
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
