package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mangabookmark/backend/web"
)

var syncKeyShown = regexp.MustCompile(`id="sync-key">(mbsync_[A-Za-z0-9_-]+)<`)

// TestPhoneSyncCard: the settings page's Phone sync card makes a key and
// shows it once with the host, rotates it (the old one stops working),
// saves add_favorites, and revokes the key; without the phone sync the
// card is absent and its forms are 404.
func TestPhoneSyncCard(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, "https://mb.example.org", func(d *web.Deps) { d.SyncKeys = d.Auth.(web.SyncKeys) })
	c := f.login(t, f.readerToken)
	page := f.get(t, c, "/settings")
	if page.code != 200 || !strings.Contains(page.body, `id="phone-sync"`) || !strings.Contains(page.body, "Make a sync key") {
		t.Fatalf("settings without a key: %d", page.code)
	}
	csrf := f.csrf(t, c, "/settings")
	made := f.postForm(t, c, "/notices/sync/key", url.Values{"csrf": {csrf}})
	m := syncKeyShown.FindStringSubmatch(made.body)
	if made.code != 200 || m == nil || !strings.Contains(made.body, `<code id="sync-host">https://mb.example.org</code>`) {
		t.Fatalf("make key: %d, key shown %v", made.code, m != nil)
	}
	if _, err := f.svc.AuthenticateSync(t.Context(), m[1]); err != nil {
		t.Fatalf("the shown key does not authenticate: %v", err)
	}
	if again := f.get(t, c, "/settings"); syncKeyShown.MatchString(again.body) || !strings.Contains(again.body, "Make a new key") {
		t.Fatal("the key shows twice, or the card does not say one is made")
	}
	rotated := f.postForm(t, c, "/notices/sync/key", url.Values{"csrf": {csrf}})
	if n := syncKeyShown.FindStringSubmatch(rotated.body); n == nil || n[1] == m[1] {
		t.Fatal("rotate showed no new key")
	}
	if _, err := f.svc.AuthenticateSync(t.Context(), m[1]); err == nil {
		t.Fatal("the rotated key still authenticates")
	}
	if a := f.postForm(t, c, "/notices/sync/favorites", url.Values{"csrf": {csrf}}); a.code != http.StatusSeeOther {
		t.Fatalf("save favourites: %d", a.code)
	}
	if st, err := f.st.GetSyncState(t.Context(), 2); err != nil || st.AddFavorites || !st.Enabled {
		t.Fatalf("state %+v %v, want add_favorites off and a key", st, err)
	}
	if a := f.postForm(t, c, "/notices/sync/revoke", url.Values{"csrf": {csrf}}); a.code != http.StatusSeeOther {
		t.Fatalf("revoke: %d", a.code)
	}
	if st, _ := f.st.GetSyncState(t.Context(), 2); st.Enabled {
		t.Fatal("revoked, the key still stands")
	}
	if a := f.postForm(t, c, "/notices/sync/key", url.Values{"csrf": {"wrong"}}); a.code != http.StatusForbidden {
		t.Fatalf("a form without the csrf field: %d", a.code)
	}

	off := newFixture(t, "https://mb.example.org")
	oc := off.login(t, off.readerToken)
	if p := off.get(t, oc, "/settings"); strings.Contains(p.body, `id="phone-sync"`) {
		t.Fatal("the card shows on a server without phone sync")
	}
	if a := off.postForm(t, oc, "/notices/sync/key", url.Values{"csrf": {off.csrf(t, oc, "/settings")}}); a.code != http.StatusNotFound {
		t.Fatalf("sync form without phone sync: %d", a.code)
	}
}
