package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser/chromiumtest"
	"mangabookmark/backend/store"
)

// A real Chromium uploads a CSV on the import page, sees the import wait
// for the allowance (the progress bar at 2 of 3), and sees the page update
// itself to done once the allowance refills and the import service runs.
func TestBrowserImportUploadShowsProgress(t *testing.T) {
	chromiumtest.Require(t)
	f := newFixture(t, "")
	f.st.SetClock(f.clock.Now)
	f.st.SetReaderLimits(store.ReaderLimits{NewSeriesPerHour: 2, MaxBookmarks: 5000})
	file := filepath.Join(t.TempDir(), "library.csv")
	csv := "url,progress\nhttps://mangapill.test/series/70,3\nhttps://mangapill.test/series/71,\nhttps://mangapill.test/series/72,9\nhttps://example.org/x,\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	p := openPage(t)
	browserLogin(t, p, f.srv.URL, f.readerToken)
	p.MustNavigate(f.srv.URL + "/import").MustWaitLoad()
	assertNamed(t, p)
	p.MustElement("#file").MustSetFiles(file)
	submit(p, `form.import button[type=submit]`)
	box := p.MustElement("#import")
	if s := box.MustAttribute("data-state"); s == nil || *s != "waiting" {
		t.Fatalf("after the upload: state %v; page %s", s, p.MustElement("main").MustText())
	}
	if v := p.MustEval(`() => document.querySelector('#progress').value`).Int(); v != 3 {
		t.Errorf("progress %d, want 3 of 4 decided (2 added, 1 not a Site)", v)
	}
	text := p.MustElement("main").MustText()
	for _, want := range []string{"1 wait for your allowance", "2 added", "not a Site we read"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q:\n%s", want, text)
		}
	}
	// Just before the refill the page asks to refresh within seconds.
	f.clock.Add(30*time.Minute - time.Second)
	p.MustReload().MustWaitLoad()
	f.clock.Add(2 * time.Second)
	if err := f.imports.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The page refreshes itself: no reload from the test.
	done, err := p.Timeout(30 * time.Second).Element(`#import[data-state="done"]`)
	if err != nil {
		t.Fatalf("the page never showed the import done: %v", err)
	}
	if a := done.MustAttribute("data-added"); a == nil || *a != "3" {
		t.Errorf("added %v, want 3", a)
	}
	if v := p.MustEval(`() => document.querySelector('#progress').value`).Int(); v != 4 {
		t.Errorf("progress %d, want 4 of 4", v)
	}
	if n := len(p.MustElements("ul.added li")); n != 3 {
		t.Errorf("%d added rows, want 3", n)
	}
}
