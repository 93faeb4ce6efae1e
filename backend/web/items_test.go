package web

import "testing"

func TestSiteURLKeepsOnlyHTTPLinks(t *testing.T) {
	for in, want := range map[string]string{
		"https://mangapill.test/c/1?a=1&b=2": "https://mangapill.test/c/1?a=1&amp;b=2",
		"HTTP://Example.test/x":              "HTTP://Example.test/x",
		`https://x.test/"><svg onload=a()>`:  "https://x.test/&#34;&gt;&lt;svg onload=a()&gt;",
		"javascript:alert(1)":                "#",
		" javascript:alert(1)":               "#",
		"JaVaScRiPt:alert(1)":                "#",
		"data:text/html,<script>":            "#",
		"//evil.test/x":                      "#",
		"https:///evil.test":                 "#",
		`https:\\evil.test`:                  "#",
		"https://":                           "#",
		"/relative":                          "#",
		"":                                   "#",
		"httpx://a.test":                     "#",
	} {
		if got := siteURL(in); got != want {
			t.Errorf("siteURL(%q) = %q, want %q", in, got, want)
		}
	}
}
