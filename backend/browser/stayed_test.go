package browser

import (
	"testing"

	"mangabookmark/backend/sites"
)

func TestStayedRefusesEveryOtherDocument(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "kagane", Hosts: []string{"kagane.to", "127.0.0.1:8081"}}
	onSite := sites.Request{Site: site, Page: "https://kagane.to/series/7"}
	noSite := sites.Request{Page: "http://127.0.0.1:8081/series/7"}
	for _, tc := range []struct {
		req  sites.Request
		doc  string
		want bool
	}{
		{onSite, "https://kagane.to/series/7", true},
		{onSite, "https://www.kagane.to/series/7#top", true},
		{onSite, "https://api.kagane.to/series/7", true},
		{onSite, "http://127.0.0.1:8081/series/7", true},
		{onSite, "http://127.0.0.1:9222/json/version", false}, // the sidecar's DevTools port
		{onSite, "http://127.0.0.1/series/7", false},
		{onSite, "https://kagane.to.evil.example/series/7", false},
		{onSite, "https://evilkagane.to/", false},
		{onSite, "about:blank", false},
		{onSite, "data:text/html,<h1>x</h1>", false},
		{onSite, "chrome-error://chromewebdata/", false},
		{onSite, "file:///etc/passwd", false},
		{onSite, "", false},
		{noSite, "http://127.0.0.1:8081/other", true},
		{noSite, "http://127.0.0.1:9222/json/version", false},
	} {
		err := stayed(tc.req, tc.doc)
		if (err == nil) != tc.want {
			t.Errorf("stayed(%s, %q) = %v, want ok %v", tc.req.Page, tc.doc, err, tc.want)
		}
		if err != nil && sites.ClassifyError(err) != sites.Errors {
			t.Errorf("stayed(%q) classified %s, want errors", tc.doc, sites.ClassifyError(err))
		}
	}
}
