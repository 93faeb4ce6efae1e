package cli_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/client"
)

func TestWorksCountsByHowLinked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	srv, err := api.New(api.Config{Store: st, Auth: apitest.Auth{}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	r, err := st.UpsertReader(ctx, "1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// A Work holds one Series per Site: each pair spans two Sites.
	for _, s := range [][2]string{{"mangapill", "a"}, {"comix", "b"}, {"mangapill", "c"}, {"comix", "d"}} {
		if _, err := st.AddBookmark(ctx, r.ID, s[0], s[1], "https://"+s[0]+".example/manga/"+s[1]); err != nil {
			t.Fatal(err)
		}
	}
	al := []store.ExternalID{{Kind: "al", Value: "5", Source: store.IDFromSite}}
	if _, err := st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "mangapill", SeriesID: "a", IDs: al}, {Site: "comix", SeriesID: "b", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LinkByHand(ctx, r.ID, store.SeriesRef{Site: "mangapill", SeriesID: "c"}, store.SeriesRef{Site: "comix", SeriesID: "d"}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MBCTL_SERVER": hs.URL, "MBCTL_TOKEN": apitest.OwnerToken}
	out := mbctl(t, env, t.TempDir(), "works")
	if out.code != 0 {
		t.Fatalf("mbctl works = %d: %s", out.code, out.stderr)
	}
	lines := strings.Split(strings.TrimSpace(out.stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "BY IDS") || strings.Join(strings.Fields(lines[1]), " ") != "2 2 2 0 2 0" {
		t.Fatalf("mbctl works:\n%s\nwant 2 Works, 2 links by ids, 2 hand links", out.stdout)
	}
	out = mbctl(t, env, t.TempDir(), "--json", "works")
	var w client.AdminWorks
	if err := json.Unmarshal([]byte(out.stdout), &w); err != nil || w.Works != 2 || w.ByID != 2 || w.HandLinks != 2 {
		t.Fatalf("mbctl --json works: %+v (%v) from %s", w, err, out.stdout)
	}
}

// mbctl offset and unlink: the Owner's shared offset and shared unlink,
// for every Reader; a member that is none is an error naming it.
func TestOffsetAndUnlinkCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Config{Store: st, Sites: reg, Auth: apitest.Auth{}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	r, err := st.UpsertReader(ctx, "1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][2]string{{"mangapill", "a"}, {"comix", "b"}, {"mangadex", "c"}} {
		if _, err := st.AddBookmark(ctx, r.ID, s[0], s[1], "https://"+s[0]+".example/manga/"+s[1]); err != nil {
			t.Fatal(err)
		}
	}
	al := []store.ExternalID{{Kind: "al", Value: "5", Source: store.IDFromSite}}
	if _, err := st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "mangapill", SeriesID: "a", IDs: al},
		{Site: "comix", SeriesID: "b", IDs: al}, {Site: "mangadex", SeriesID: "c", IDs: al}}); err != nil {
		t.Fatal(err)
	}
	wk, err := st.WorkOf(ctx, "comix", "b")
	if err != nil {
		t.Fatal(err)
	}
	work := strconv.FormatInt(wk, 10)
	env := map[string]string{"MBCTL_SERVER": hs.URL, "MBCTL_TOKEN": apitest.OwnerToken}
	for _, bad := range []string{"1e9", "NaN", "100001", "ten"} {
		if out := mbctl(t, env, t.TempDir(), "offset", work, "comix", "b", bad); out.code == 0 || !strings.Contains(out.stderr, "offset") {
			t.Fatalf("mbctl offset %s = %d: %s %s", bad, out.code, out.stdout, out.stderr)
		}
	}
	if out := mbctl(t, env, t.TempDir(), "offset", work, "comix", "b", "--", "-3"); out.code != 0 || !strings.Contains(out.stdout, "shared offset -3") {
		t.Fatalf("mbctl offset -- -3 = %d: %s %s", out.code, out.stdout, out.stderr)
	}
	out := mbctl(t, env, t.TempDir(), "offset", work, "comix", "b", "2.5")
	if out.code != 0 || !strings.Contains(out.stdout, "shared offset 2.5") {
		t.Fatalf("mbctl offset = %d: %s %s", out.code, out.stdout, out.stderr)
	}
	var off string
	if err := st.Pool().QueryRow(ctx, `SELECT "offset"::text FROM work_members WHERE site = 'comix'`).Scan(&off); err != nil || off != "2.5" {
		t.Fatalf("shared offset %q (%v), want 2.5", off, err)
	}
	out = mbctl(t, env, t.TempDir(), "--json", "unlink", work, "mangadex", "c")
	var u client.SharedUnlink
	if out.code != 0 || json.Unmarshal([]byte(out.stdout), &u) != nil || u.WorkID != wk || u.Site != "mangadex" || u.SeriesID != "c" {
		t.Fatalf("mbctl --json unlink = %d: %s %s", out.code, out.stdout, out.stderr)
	}
	if got, err := st.WorkOf(ctx, "mangadex", "c"); err == nil {
		t.Fatalf("mangadex/c still in Work %d", got)
	}
	out = mbctl(t, env, t.TempDir(), "unlink", work, "mangadex", "c")
	if out.code == 0 || !strings.Contains(out.stderr, "no shared member") {
		t.Fatalf("mbctl unlink of no member = %d: %s %s", out.code, out.stdout, out.stderr)
	}
}
