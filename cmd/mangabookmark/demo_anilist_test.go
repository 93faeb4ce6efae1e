package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/config"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/trackers/anilist"
)

// TestDemoAniListStandIn: the demo's stand-in answers the real AniList
// client with a list naming the demo Series' al ids and a few ids no
// Series carries, and its Connect runs through the real OAuth flow.
func TestDemoAniListStandIn(t *testing.T) {
	t.Parallel()
	cfg := config.Config{PublicBaseURL: "http://127.0.0.1:8080", TokenKey: []byte("demo-anilist-test-token-key-0123456789")}
	stop, err := demoAniList(&cfg, "127.0.0.1:0", 8, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if cfg.TrackerOrigins[anilist.Name] == "" || !cfg.AniListEnabled() {
		t.Fatalf("cfg not pointed at the stand-in: %v, connect %v", cfg.TrackerOrigins, cfg.AniListEnabled())
	}
	client, oauth, err := anilist.FromConfig(cfg, nil, slog.New(slog.DiscardHandler))
	if err != nil || oauth == nil {
		t.Fatalf("FromConfig: %v, oauth %v", err, oauth)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := client.List(ctx, DemoAniListUser)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, e := range list.Entries {
		ids[e.MediaID] = e.Progress
	}
	for k := range 8 {
		for _, l := range sitesim.Links(sitesim.MangaDex, k) {
			if _, ok := ids[l.Value]; l.Kind == "al" && !ok {
				t.Errorf("the demo list lacks MangaDex Series %d's al id %s", k, l.Value)
			}
		}
	}
	if _, ok := ids["990001"]; !ok || len(list.Entries) < demoUnmatched+4 {
		t.Errorf("the demo list: %d entries, unmatched present %v", len(list.Entries), ok)
	}
	// Connect: authorize (approved at once), back with a code, exchanged.
	to, err := oauth.AuthorizeURL("session-1")
	if err != nil {
		t.Fatal(err)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(to)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || back.Path != anilist.CallbackPath {
		t.Fatalf("authorize answered %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	token, err := oauth.Complete(ctx, "session-1", back.Query().Get("state"), back.Query().Get("code"))
	if err != nil || token == "" {
		t.Fatalf("exchange: %v", err)
	}
	acct, err := client.Viewer(ctx, token)
	if err != nil || acct.Name != DemoAniListUser {
		t.Fatalf("the Connect token is %+v, %v", acct, err)
	}
}
