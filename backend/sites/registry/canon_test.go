package registry_test

import (
	"errors"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/registry"
)

const (
	mdID = "a1c7c817-4e59-43b7-9365-09675a149a6f"
	wcID = "01J76XY7E9FNDZ1DBBM6PBJPFK"
	kgID = "019c29bc-0812-7957-a1b2-1234567890ab"
)

func TestCanonicalizeSiteShapes(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		site, id, canon string
		urls            []string
	}{
		{"mangadex", mdID, "https://mangadex.org/title/" + mdID, []string{
			"https://mangadex.org/title/" + mdID,
			"https://mangadex.org/title/" + mdID + "/",
			"https://mangadex.org/title/" + mdID + "/one-piece",
			"https://www.mangadex.org/title/" + mdID + "/one-piece",
			"http://mangadex.org/title/" + mdID,
			"https://MangaDex.org/title/" + strings.ToUpper(mdID),
			"https://mangadex.org/title/" + mdID + "?tab=chapters",
			"https://mangadex.org/title/" + mdID + "#comments",
			"https://mangadex.org/manga/" + mdID,
			"https://mangadex.org:443/title/" + mdID,
			"  https://mangadex.org/title/" + mdID + "/one-piece?a=1#b  ",
		}},
		{"weebcentral", wcID, "https://weebcentral.com/series/" + wcID, []string{
			"https://weebcentral.com/series/" + wcID,
			"https://weebcentral.com/series/" + wcID + "/One-Piece",
			"https://weebcentral.com/series/" + wcID + "/One-Piece/",
			"https://www.weebcentral.com/series/" + wcID + "/One-Piece",
			"https://weebcentral.com/series/" + strings.ToLower(wcID),
			"https://weebcentral.com/series/" + wcID + "?x=1",
			"https://weebcentral.com/series/" + wcID + "#top",
			"http://weebcentral.com/series/" + wcID,
			"https://WEEBCENTRAL.COM/series/" + wcID,
			"https://weebcentral.com/series/" + wcID + "/full-chapter-list",
			"https://weebcentral.com//series//" + wcID,
		}},
		{"mangapill", "2", "https://mangapill.com/manga/2", []string{
			"https://mangapill.com/manga/2",
			"https://mangapill.com/manga/2/one-piece",
			"https://mangapill.com/manga/2/one-piece/",
			"https://www.mangapill.com/manga/2/one-piece",
			"https://mangapill.com/manga/002/one-piece",
			"https://mangapill.com/chapters/2-11184000/one-piece-chapter-1184",
			"https://mangapill.com/chapters/2-11183500/one-piece-chapter-1183-5?page=3",
			"https://mangapill.com/manga/2?tab=1",
			"https://mangapill.com/manga/2#chapters",
			"http://MANGAPILL.com/manga/2/",
		}},
		{"kagane", kgID, "https://kagane.to/series/" + kgID, []string{
			"https://kagane.to/series/" + kgID,
			"https://kagane.to/series/" + kgID + "/",
			"https://kagane.org/series/" + kgID,
			"https://www.kagane.to/series/" + kgID,
			"https://www.kagane.org/series/" + kgID,
			"https://kagane.to/series/" + strings.ToUpper(kgID),
			"https://kagane.to/series/" + kgID + "/reader/019c29bc-0000-7957-a1b2-1234567890ab",
			"https://kagane.to/series/" + kgID + "?ref=home",
			"https://kagane.to/series/" + kgID + "#top",
			"http://kagane.to/series/" + kgID,
		}},
		{"kagane", "01hq3z5k8m9n0p1q2r3s4t5v6w", "https://kagane.to/series/01hq3z5k8m9n0p1q2r3s4t5v6w", []string{
			"https://kagane.org/series/01HQ3Z5K8M9N0P1Q2R3S4T5V6W",
		}},
		{"comix", "keqvv-whos-that-girl", "https://comix.to/title/keqvv-whos-that-girl", []string{
			"https://comix.to/title/keqvv-whos-that-girl",
			"https://comix.to/title/keqvv-whos-that-girl/",
			"https://comix.ws/title/keqvv-whos-that-girl",
			"https://www.comix.to/title/keqvv-whos-that-girl",
			"https://www.comix.ws/title/keqvv-whos-that-girl",
			"https://comix.to/title/keqvv-whos-that-girl/5521804-chapter-12",
			"https://comix.to/title/KEQVV-Whos-That-Girl",
			"https://comix.to/title/keqvv-whos-that-girl?lang=en",
			"https://comix.to/title/keqvv-whos-that-girl#chapters",
			"http://comix.to/title/keqvv-whos-that-girl",
		}},
		{"natomanga", "solo-leveling", "https://www.natomanga.com/manga/solo-leveling", []string{
			"https://www.natomanga.com/manga/solo-leveling",
			"https://natomanga.com/manga/solo-leveling/",
			"https://www.nelomanga.net/manga/solo-leveling",
			"https://www.manganato.gg/manga/solo-leveling",
			"https://www.mangakakalot.gg/manga/solo-leveling",
			"https://www.mangakakalove.com/manga/solo-leveling",
			"https://www.natomanga.com/manga/solo-leveling/chapter-200",
			"https://www.natomanga.com/manga/Solo-Leveling",
			"https://www.natomanga.com/manga/solo-leveling?x=1",
			"https://www.natomanga.com/manga/solo-leveling#top",
		}},
	}
	for _, c := range cases {
		for _, u := range c.urls {
			ref, err := reg.Canonicalize(u)
			if err != nil {
				t.Errorf("%s: %v", u, err)
				continue
			}
			want := sites.Ref{Site: c.site, SeriesID: c.id, URL: c.canon}
			if ref != want {
				t.Errorf("%s: got %+v, want %+v", u, ref, want)
			}
		}
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(map[string]string{"comix": "http://127.0.0.1:8081"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url  string
		want error
	}{
		{"https://example.com/title/" + mdID, sites.ErrUnknownSite},
		{"https://mangadex.org.evil.example/title/" + mdID, sites.ErrUnknownSite},
		{"https://evilmangadex.org/title/" + mdID, sites.ErrUnknownSite},
		{"https://xn--mangadx-0ya.org/title/" + mdID, sites.ErrUnknownSite}, // punycode look-alike
		{"https://mangadéx.org/title/" + mdID, sites.ErrUnknownSite},
		{"https://mangadex.org@evil.example/title/" + mdID, sites.ErrBadURL},
		{"https://user:pass@mangadex.org/title/" + mdID, sites.ErrBadURL},
		{"https://evil.example#@mangadex.org/title/" + mdID, sites.ErrUnknownSite},
		{"http://127.0.0.1/title/" + mdID, sites.ErrBadURL},
		{"http://127.0.0.1:8082/title/keqvv-x", sites.ErrBadURL}, // not the override port
		{"http://[::1]/manga/2", sites.ErrBadURL},
		{"http://2130706433/manga/2", sites.ErrUnknownSite},
		{"javascript:alert(1)//mangadex.org/title/" + mdID, sites.ErrBadURL},
		{"data:text/html,<script>alert(1)</script>", sites.ErrBadURL},
		{"ftp://mangadex.org/title/" + mdID, sites.ErrBadURL},
		{"file:///etc/passwd", sites.ErrBadURL},
		{"//mangadex.org/title/" + mdID, sites.ErrBadURL},
		{"mangadex.org/title/" + mdID, sites.ErrBadURL},
		{"", sites.ErrBadURL},
		{"https://mangadex.org/title/" + mdID + "?" + strings.Repeat("a", 3000), sites.ErrBadURL},
		{"https://mangadex.org:8443/title/" + mdID, sites.ErrUnknownSite},
		{"https://mangadex.org/", sites.ErrNoSeries},
		{"https://mangadex.org/title/not-a-uuid", sites.ErrNoSeries},
		{"https://mangadex.org/chapter/" + mdID, sites.ErrNoSeries},
		{"https://weebcentral.com/chapters/" + wcID, sites.ErrNoSeries},
		{"https://weebcentral.com/series/ILOU0000000000000000000000", sites.ErrNoSeries},
		{"https://mangapill.com/manga/abc", sites.ErrNoSeries},
		{"https://mangapill.com/manga/0", sites.ErrNoSeries},
		{"https://mangapill.com/search?q=one", sites.ErrNoSeries},
		{"https://kagane.to/series/../../etc", sites.ErrNoSeries},
		{"https://comix.to/title/", sites.ErrNoSeries},
		{"https://comix.to/title/%3Cscript%3E", sites.ErrNoSeries},
		{"https://natomanga.com/genre/action", sites.ErrNoSeries},
		{"https://natomanga.com/manga/..%2f..%2fadmin", sites.ErrNoSeries},
	}
	for _, c := range cases {
		ref, err := reg.Canonicalize(c.url)
		if !errors.Is(err, c.want) {
			t.Errorf("%.80q: got %+v, %v; want %v", c.url, ref, err, c.want)
		}
	}
	// The override host itself is accepted, with its port.
	ref, err := reg.Canonicalize("http://127.0.0.1:8081/title/keqvv-whos-that-girl")
	if err != nil || ref.Site != "comix" || ref.URL != "http://127.0.0.1:8081/title/keqvv-whos-that-girl" {
		t.Errorf("override host: %+v, %v", ref, err)
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		"https://mangadex.org/title/" + mdID, "https://weebcentral.com/series/" + wcID + "/x",
		"https://mangapill.com/chapters/2-11184000/x", "https://kagane.to/series/" + kgID,
		"https://comix.to/title/keqvv-x", "https://www.natomanga.com/manga/x", "http://127.0.0.1:8081/title/abc",
		"javascript:alert(1)", "https://user@mangadex.org/", "http://[::1]:80/", "%", "https://a/%zz",
	} {
		f.Add(s)
	}
	reg, err := registry.New(map[string]string{"comix": "http://127.0.0.1:8081"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		ref, err := reg.Canonicalize(raw)
		if err != nil {
			if ref != (sites.Ref{}) {
				t.Fatalf("error with a Ref: %+v", ref)
			}
			return
		}
		if reg.Get(ref.Site) == nil || ref.SeriesID == "" {
			t.Fatalf("bad Ref %+v from %q", ref, raw)
		}
		// The canonical URL is itself canonical.
		again, err := reg.Canonicalize(ref.URL)
		if err != nil || again != ref {
			t.Fatalf("%q -> %+v, whose URL gives %+v, %v", raw, ref, again, err)
		}
	})
}
