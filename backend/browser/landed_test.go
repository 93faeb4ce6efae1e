package browser

import (
	"testing"

	"mangabookmark/backend/sites"
)

// The data URL moves to the landed document's origin only when both are on
// the Site; a document or data URL elsewhere is never a reason to send the
// request to another host.
func TestOnLanded(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "natomanga", Hosts: []string{"www.natomanga.com", "nelomanga.net"}}
	req := func(data string) sites.Request { return sites.Request{Site: site, Data: data} }
	api := "https://natomanga.com/api/manga/x/chapters?limit=-1"
	cases := []struct{ data, doc, want string }{
		{api, "https://www.natomanga.com/manga/x", "https://www.natomanga.com/api/manga/x/chapters?limit=-1"},
		{api, "https://natomanga.com/manga/x", api},
		{api, "https://nelomanga.net/manga/x", "https://nelomanga.net/api/manga/x/chapters?limit=-1"},
		{api, "https://evil.example/manga/x", api},
		{api, "https://natomanga.com.evil.example/", api},
		{api, "https://user@www.natomanga.com/", api},
		{api, "javascript:alert(1)", api},
		{api, "about:blank", api},
		{api, "::", api},
		{"https://evil.example/api/x", "https://www.natomanga.com/manga/x", "https://evil.example/api/x"},
		{"/api/relative", "https://www.natomanga.com/manga/x", "/api/relative"},
	}
	for _, c := range cases {
		if got := onLanded(req(c.data), c.doc); got != c.want {
			t.Errorf("data %q on %q: %q, want %q", c.data, c.doc, got, c.want)
		}
	}
}
