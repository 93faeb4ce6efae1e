package browser_test

import (
	"testing"

	"mangabookmark/backend/browser"
	"mangabookmark/backend/browser/chromiumtest"
)

// BenchmarkBrowserRead measures reads through one tab: navigate to a Series
// page behind the (already solved) challenge, then fetch its chapter data
// inside the page. reads/min is the tab's ceiling.
func BenchmarkBrowserRead(b *testing.B) {
	chrome := chromiumtest.Shared(b)
	s := newSite(b)
	br := mustNew(b, browser.Config{WSURL: chrome.WSURL()}) // production defaults
	b.Cleanup(func() { _ = br.Close() })
	page, data := s.URL+"/cf/series/7", s.URL+"/cf/api/manga/7/chapters?limit=-1"
	mustFetch(b, br, page, data) // solves the challenge once; the cookie stays in Chrome

	reads := 0
	b.ResetTimer()
	for b.Loop() {
		if res := mustFetch(b, br, page, data); len(res.Body) == 0 {
			b.Fatal("empty body")
		}
		reads++
	}
	b.ReportMetric(float64(reads)/b.Elapsed().Minutes(), "reads/min")
}
