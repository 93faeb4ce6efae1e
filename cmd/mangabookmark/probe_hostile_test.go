package main

import (
	"strings"
	"testing"
	"unicode"

	"mangabookmark/backend/sitesim"
)

// TestProbeShowsHostileTitleInert: probe prints what a Site page says, so a
// Series title carrying terminal escapes (raw and as HTML entities) must
// reach stdout with every control character made visible, in the text and
// the --json report alike.
func TestProbeShowsHostileTitleInert(t *testing.T) {
	t.Parallel()
	p := newProbeEnv(t, "")
	site := sitesim.MangaPill
	titles := []string{
		"\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m",
		"&#27;]52;c;cHduZWQ=&#7;Clip &#x1b;]8;;http://evil.example&#x1b;\\link &#x9b;",
	}
	for i, title := range titles {
		id := p.sim.SeriesID(site, i)
		p.sim.SetSeries(site, id, sitesim.Behavior{TitleHTML: title})
		out, errOut, code := p.probe(t, p.sim.SeriesURL(site, id))
		if code != 0 || !strings.Contains(out, "Evil") && !strings.Contains(out, "Clip") {
			t.Fatalf("title %d: exit %d, the title is not in the report:\n%s\n%s", i, code, out, errOut)
		}
		js, _, code := p.probe(t, "--json", p.sim.SeriesURL(site, id))
		if code != 0 {
			t.Fatalf("title %d: --json exit %d", i, code)
		}
		for form, s := range map[string]string{"text": out, "json": js} {
			for _, r := range s {
				if r != '\n' && (unicode.IsControl(r) || r == '\u009b') {
					t.Errorf("title %d: %s report carries control character %U:\n%q", i, form, r, s)
					break
				}
			}
		}
	}
}

// TestProbeSaveNamesStayInTheDirectory: --save names each file after the
// request's path, which carries Site-given ids and slugs. Whatever the
// path, the name is one plain file name inside the directory, never a
// path out of it, and a Site's Content-Type picks only a known extension.
func TestProbeSaveNamesStayInTheDirectory(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"http://127.0.0.1/../../etc/passwd", "../../../root/.ssh/authorized_keys", "http://h/%2e%2e%2f%2e%2e%2fx",
		"http://h/a\\..\\..\\b", "http://h/\x00nul", "http://h/" + strings.Repeat("long-", 100), "http://h/", ""} {
		name := pathSlug(raw)
		if name == "" || len(name) > 60 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" ||
			strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
			t.Errorf("pathSlug(%.60q) = %q, not one plain name", raw, name)
		}
	}
	for ct, want := range map[string]string{"text/html; charset=utf-8": "html", "application/vnd.api+json": "json",
		"text/plain": "txt", "../../x": "bin", "application/x-sh": "bin", "": "bin", "text/html\x00/../x": "bin"} {
		if got := extFor(ct); got != want {
			t.Errorf("extFor(%q) = %q, want %q", ct, got, want)
		}
	}
}
