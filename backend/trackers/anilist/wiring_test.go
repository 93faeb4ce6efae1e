package anilist

import (
	"net/url"
	"strings"
	"testing"

	"mangabookmark/backend/config"
)

// TestFromConfig: TRACKER_ORIGINS points both the API and the Connect flow
// at its origin; without ANILIST_CLIENT_ID there is no Connect flow.
func TestFromConfig(t *testing.T) {
	t.Parallel()
	c, err := config.Load(func(k string) string {
		return map[string]string{
			"TOKEN_KEY": strings.Repeat("k", 32), "PUBLIC_BASE_URL": "https://manga.example.org",
			"ANILIST_CLIENT_ID": "4242", "ANILIST_CLIENT_SECRET": "s", "TRACKER_ORIGINS": "anilist=http://127.0.0.1:9100",
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	client, o, err := FromConfig(c, nil, nil)
	if err != nil || o == nil {
		t.Fatalf("FromConfig: %v, oauth %v", err, o)
	}
	if client.apiURL != "http://127.0.0.1:9100" {
		t.Fatalf("api at %q", client.apiURL)
	}
	authorize, err := o.AuthorizeURL("session")
	u, _ := url.Parse(authorize)
	if err != nil || u.Host != "127.0.0.1:9100" || o.RedirectURL() != "https://manga.example.org/trackers/anilist/callback" {
		t.Fatalf("authorize %s, redirect %s, %v", authorize, o.RedirectURL(), err)
	}

	plain, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	client, o, err = FromConfig(plain, nil, nil)
	if err != nil || o != nil || client.apiURL != DefaultAPIURL {
		t.Fatalf("no client configured: %+v %v %v", client, o, err)
	}
}
