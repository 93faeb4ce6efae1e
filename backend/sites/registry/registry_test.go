package registry_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sites/registry"
)

func TestOrderAndEntries(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(reg.Names(), ","); got != "kagane,comix,natomanga,mangadex,weebcentral,mangapill" {
		t.Fatalf("order %s", got)
	}
	browser := map[string]bool{"kagane": true, "comix": true, "natomanga": true}
	for _, s := range reg.All() {
		if s.Browser != browser[s.Name] || s.Rest != time.Hour || s.Gap != 10*time.Second || s.Overridden {
			t.Errorf("%s: browser %v rest %v gap %v overridden %v", s.Name, s.Browser, s.Rest, s.Gap, s.Overridden)
		}
		if s.Origin != "https://"+s.Hosts[0] {
			t.Errorf("%s: origin %s", s.Name, s.Origin)
		}
	}
	for host, site := range map[string]string{"kagane.org": "kagane", "www.kagane.to": "kagane", "comix.ws": "comix",
		"mangakakalove.com": "natomanga", "nelomanga.net": "natomanga", "manganato.gg": "natomanga",
		"mangakakalot.gg": "natomanga", "mangadex.org": "mangadex", "weebcentral.com": "weebcentral", "mangapill.com": "mangapill"} {
		if s := reg.ByHost(host); s == nil || s.Name != site {
			t.Errorf("host %s: %v", host, s)
		}
	}
}

func TestOrigins(t *testing.T) {
	t.Parallel()
	reg, err := registry.FromEnv("comix=http://127.0.0.1:8081, kagane=https://Mirror.example/")
	if err != nil {
		t.Fatal(err)
	}
	c := reg.Get("comix")
	if !c.Overridden || c.Origin != "http://127.0.0.1:8081" || reg.ByHost("127.0.0.1:8081") != c {
		t.Errorf("comix: %+v", c)
	}
	if k := reg.Get("kagane"); k.Origin != "https://mirror.example" || reg.ByHost("mirror.example") != k {
		t.Errorf("kagane: %+v", k)
	}
	if reg.Get("mangadex").Overridden {
		t.Error("mangadex overridden without being named")
	}
	for _, bad := range []struct{ value, mention string }{
		{"nosuch=http://127.0.0.1:1", "nosuch"},
		{"comix", "comix"},
		{"comix=", "comix"},
		{"comix=ftp://x", "comix"},
		{"comix=http://x/path", "comix"},
		{"comix=http://u:p@x", "comix"},
		{"comix=http://x,comix=http://y", "comix"},
		{"comix=http://127.0.0.1:1,kagane=http://127.0.0.1:1", "127.0.0.1:1"},
		{"kagane=https://mangadex.org", "mangadex"},
	} {
		_, err := registry.FromEnv(bad.value)
		if err == nil || !strings.Contains(err.Error(), bad.mention) {
			t.Errorf("%q: error %v, want one naming %q", bad.value, err, bad.mention)
		}
	}
}
