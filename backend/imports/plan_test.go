package imports_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites/registry"
)

// chains are the texts of an error's log form: a package prefix or a
// wrapped error's text after a colon.
var chains = []string{"sites:", "imports:", "mangadex:", "weebcentral:", "comix:", "kagane:", "natomanga:", "mangapill:",
	": the URL names no Series", ": not a usable Site URL", ": no registered Site serves this host"}

// An item the Site resolver refuses is listed with one sentence built
// from the refusal's reason, worded as POST /api/bookmarks words it: no
// package prefix, no chain of wrapped error texts.
func TestUnsupportedReasonIsOneSentence(t *testing.T) {
	t.Parallel()
	reg, err := registry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	exact := map[string]string{
		"https://mangadex.org/title/notauuid":   `that URL cannot be bookmarked: "notauuid" is not a MangaDex Series id`,
		"https://mangapill.com/":                `that URL cannot be bookmarked: a Series link looks like /manga/{id}`,
		"ftp://mangapill.com/manga/2":           `that URL cannot be bookmarked: only http and https links are accepted, not "ftp"`,
		"https://user:pw@mangapill.com/manga/2": "that URL cannot be bookmarked: links with a user name or password are not accepted",
	}
	others := []string{"https://mangadex.org/chapter/a1c7c817-4e59-43b7-9365-09675a149a6f", "https://example.com/manga/1",
		"http://127.0.0.1/manga/2", "https://weebcentral.com/series", "https://comix.to/title", "https://kagane.org/x", "https://www.natomanga.com/"}
	p := &imports.Parsed{Kind: imports.KindURLs}
	for u := range exact {
		p.Items = append(p.Items, imports.Item{Label: u, URL: u})
	}
	for _, u := range others {
		p.Items = append(p.Items, imports.Item{Label: u, URL: u})
	}
	pl := imports.MakePlan(p, reg)
	if len(pl.Entries) != 0 || len(pl.Unsupported) != len(p.Items) {
		t.Fatalf("%d entries, %d unsupported, want 0 and %d", len(pl.Entries), len(pl.Unsupported), len(p.Items))
	}
	for _, u := range pl.Unsupported {
		if want, ok := exact[u.Item]; ok && u.Reason != want {
			t.Errorf("%s: %q, want %q", u.Item, u.Reason, want)
		}
		for _, chain := range chains {
			if strings.Contains(u.Reason, chain) {
				t.Errorf("%s: %q shows the error chain (%q)", u.Item, u.Reason, chain)
			}
		}
		if strings.Count(u.Reason, ": ") != 1 || strings.Contains(u.Reason, "\n") {
			t.Errorf("%s: %q, want one sentence", u.Item, u.Reason)
		}
		if u.Item == "https://example.com/manga/1" && !strings.HasPrefix(u.Reason, "not a Site we read: ") {
			t.Errorf("%s: %q, want the unknown Site's wording", u.Item, u.Reason)
		}
	}
}

// Reason finds a decoder's sentence through any wrapping and never shows
// the text of an error that carries none.
func TestReasonIsTheDecodersSentence(t *testing.T) {
	t.Parallel()
	_, err := imports.FromLines("   \n")
	if err == nil {
		t.Fatal("an empty list was read")
	}
	want := imports.Reason(err)
	if got := imports.Reason(fmt.Errorf("web: upload: %w", err)); got != want || strings.Contains(got, "web:") {
		t.Errorf("through a wrap: %q, want %q", got, want)
	}
	plain := errors.New("imports: read /tmp/multipart-123: input/output error")
	if got := imports.Reason(plain); strings.Contains(got, "imports:") || strings.Contains(got, "/tmp") {
		t.Errorf("an error without a reason shows its text: %q", got)
	}
}
