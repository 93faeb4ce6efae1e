package mangadex

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// pathFetcher answers the manga entity and the feed by path, recording
// every URL asked for.
type pathFetcher struct {
	mu    sync.Mutex
	asked []string
	manga []byte
	feed  []byte
}

func (p *pathFetcher) Fetch(_ context.Context, req sites.Request) (*sites.Response, error) {
	p.mu.Lock()
	p.asked = append(p.asked, req.Target())
	p.mu.Unlock()
	body := p.manga
	if strings.Contains(req.Target(), "/feed") {
		body = p.feed
	}
	return sitestest.Response(req.Target(), 200, "application/json", body), nil
}

// A licensed title's English feed holds only external chapters: the feed
// query must not filter them out (includeEmptyPages=0 keeps only chapters
// with pages), and the newest one is the Latest Chapter, linked outside.
func TestReadExternalOnlyFeed(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "mangadex", Hosts: []string{"mangadex.org"}, Origin: "https://mangadex.org"}
	f := &pathFetcher{manga: golden.Fixture(t, "manga.json"), feed: golden.Fixture(t, "feed_external_only.json")}
	res := Adapter{}.Read(context.Background(), site, f, id)
	if res.Outcome != sites.OK || res.Facts.Latest == nil {
		t.Fatalf("outcome %s (%v)", res.Outcome, res.Err)
	}
	if l := res.Facts.Latest; l.Number != "1186" || l.URL != "https://mangaplus.shueisha.co.jp/viewer/1000186" {
		t.Errorf("latest %+v", l)
	}
	if len(f.asked) != 2 {
		t.Fatalf("asked %v", f.asked)
	}
	feed, err := url.Parse(f.asked[1])
	if err != nil {
		t.Fatal(err)
	}
	q := feed.Query()
	if q.Has("includeEmptyPages") || q.Has("includeExternalUrl") {
		t.Errorf("feed query filters external chapters out: %s", feed.RawQuery)
	}
	if got := q["translatedLanguage[]"]; len(got) != 1 || got[0] != "en" {
		t.Errorf("translatedLanguage[] = %v", got)
	}
}
