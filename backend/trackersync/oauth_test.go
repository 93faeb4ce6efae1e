package trackersync_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

func TestConnectExchange(t *testing.T) {
	w := newWorld(t)
	states, err := trackers.NewStates(trackers.StatesConfig{TokenKey: tokenKey, Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	oauth, err := anilist.NewOAuth(anilist.OAuthConfig{ClientID: "1", ClientSecret: "secret", BaseURL: "https://mb.test",
		States: states, Origin: w.origin})
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := trackers.NewSealer(tokenKey)
	if err != nil {
		t.Fatal(err)
	}
	client, err := anilist.New(anilist.Config{Origin: w.origin, Limiter: w.limit})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: client, OAuth: oauth, Sealer: sealer, States: states, Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if !svc.OAuthEnabled(anilist.Name) || svc.OAuthEnabled("mal") {
		t.Fatal("OAuthEnabled")
	}
	state, err := svc.States().Make(anilist.Name, "session-1")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := svc.AuthorizeURL(anilist.Name, state)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Query().Get("state") != state || u.Query().Get("redirect_uri") != "https://mb.test/trackers/anilist/callback" ||
		u.Query().Get("response_type") != "code" || !strings.HasPrefix(raw, w.origin+"/api/v2/oauth/authorize?") {
		t.Fatalf("authorize URL %q", raw)
	}
	if svc.States().Check(anilist.Name, "session-2", state) == nil {
		t.Fatal("a state of another session was accepted")
	}
	r := w.reader("ann")
	w.al.AddUser("ann")
	w.al.AddToken("oauth-token-0123456789", "ann")
	w.al.AddCode("code-1", "oauth-token-0123456789")
	var ref *trackersync.Refusal
	if err := svc.Exchange(w.ctx, r, anilist.Name, "code-unknown"); !errors.As(err, &ref) {
		t.Fatalf("unknown code = %v, want a *Refusal", err)
	}
	if err := svc.Exchange(w.ctx, r, anilist.Name, "code-1"); err != nil {
		t.Fatal(err)
	}
	a := w.account(r)
	if !a.Connected() || !a.Push || a.Username != "ann" || a.State != store.TrackerOK {
		t.Fatalf("after Connect: %+v", a)
	}
	if err := svc.Exchange(w.ctx, r, anilist.Name, "code-1"); !errors.As(err, &ref) {
		t.Fatalf("a used code = %v, want a *Refusal", err)
	}
}
