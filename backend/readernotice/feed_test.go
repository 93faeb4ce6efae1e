package readernotice_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"

	"mangabookmark/backend/readernotice"
)

func feedToken(t *testing.T, feedURL string) string {
	t.Helper()
	_, rest, ok := strings.Cut(feedURL, "/feeds/")
	if !ok || !strings.HasSuffix(rest, ".atom") {
		t.Fatalf("feed URL %q", feedURL)
	}
	return strings.TrimSuffix(rest, ".atom")
}

func TestAtomFeedParsesAndRotates(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r, _ := w.st.UpsertReader(w.ctx, "9", "Dee", nil)
	other, _ := w.st.UpsertReader(w.ctx, "10", "", nil)
	w.bookmark(r.ID, "mangapill", "a")
	w.bookmark(other.ID, "mangapill", "z")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "z", "1")
	w.read("mangapill", "a", "2")
	w.read("mangapill", "z", "2")
	w.clk.Add(time.Hour)
	w.read("mangapill", "a", "3")

	set, err := w.svc.Settings(w.ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(set.FeedURL, "http://mb.example/feeds/mbf_") {
		t.Fatalf("feed URL %q", set.FeedURL)
	}
	again, _ := w.svc.Settings(w.ctx, r.ID)
	if again.FeedURL != set.FeedURL {
		t.Fatal("the feed URL changed without a rotation")
	}
	if n := w.count(`SELECT count(*) FROM reader_notify WHERE position(convert_to($1, 'UTF8') in feed_hmac) > 0 OR position(convert_to($1, 'UTF8') in feed_nonce) > 0`, feedToken(t, set.FeedURL)); n != 0 {
		t.Fatal("the feed token is stored as is")
	}
	body, err := w.svc.Feed(w.ctx, feedToken(t, set.FeedURL))
	if err != nil {
		t.Fatal(err)
	}
	f, err := gofeed.NewParser().ParseString(string(body))
	if err != nil {
		t.Fatalf("a real parser refuses the feed: %v\n%s", err, body)
	}
	if f.FeedType != "atom" || f.FeedVersion != "1.0" {
		t.Fatalf("feed type %s %s", f.FeedType, f.FeedVersion)
	}
	if len(f.Items) != 2 || f.Items[0].Title != "Series a 3" || f.Items[0].Link != "https://mangapill.example/a/3" {
		t.Fatalf("entries: %d, first %+v", len(f.Items), f.Items[0])
	}
	if f.Items[0].GUID == f.Items[1].GUID || !strings.HasPrefix(f.Items[0].GUID, "tag:mb.example,2026:chapter-event/") {
		t.Fatalf("entry ids %q %q", f.Items[0].GUID, f.Items[1].GUID)
	}
	if f.Items[0].UpdatedParsed == nil || !f.Items[0].UpdatedParsed.Equal(w.clk.Now()) {
		t.Fatalf("updated %v, want the event's seen_at %v", f.Items[0].UpdatedParsed, w.clk.Now())
	}
	if strings.Contains(string(body), "Series z") {
		t.Fatal("another Reader's Series is in the feed")
	}
	if !strings.Contains(string(body), `xmlns="http://www.w3.org/2005/Atom"`) {
		t.Fatal("not in the Atom namespace")
	}

	newURL, err := w.svc.RotateFeed(w.ctx, r.ID)
	if err != nil || newURL == set.FeedURL {
		t.Fatalf("rotate: %q %v", newURL, err)
	}
	if _, err := w.svc.Feed(w.ctx, feedToken(t, set.FeedURL)); !errors.Is(err, readernotice.ErrNoFeed) {
		t.Fatalf("the rotated token still opens the feed: %v", err)
	}
	if _, err := w.svc.Feed(w.ctx, feedToken(t, newURL)); err != nil {
		t.Fatalf("the new token: %v", err)
	}
	for _, bad := range []string{"", "mbf_", "mbf_x", feedToken(t, newURL) + "x", strings.Repeat("a", 500)} {
		if _, err := w.svc.Feed(w.ctx, bad); !errors.Is(err, readernotice.ErrNoFeed) {
			t.Errorf("token %q: %v", bad, err)
		}
	}
}

func TestAtomFeedKeepsThirtyDaysAndAtMostAHundred(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r, _ := w.st.UpsertReader(w.ctx, "9", "", nil)
	w.bookmark(r.ID, "mangapill", "a")
	w.read("mangapill", "a", "0")
	w.read("mangapill", "a", "1") // will be older than 30 days
	// A second Reader's Series with few events: there the 30-day window,
	// not the cap of 100, is what leaves the old one out.
	other, _ := w.st.UpsertReader(w.ctx, "10", "", nil)
	w.bookmark(other.ID, "mangapill", "b")
	w.read("mangapill", "b", "0")
	w.read("mangapill", "b", "1") // will be older than 30 days
	w.clk.Add(31 * 24 * time.Hour)
	for i := 2; i <= 130; i++ {
		w.clk.Add(time.Minute)
		w.read("mangapill", "a", fmt.Sprint(i))
	}
	w.read("mangapill", "b", "2")
	url, _ := w.svc.RotateFeed(w.ctx, r.ID)
	body, err := w.svc.Feed(w.ctx, feedToken(t, url))
	if err != nil {
		t.Fatal(err)
	}
	f, err := gofeed.NewParser().ParseString(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != 100 || f.Items[0].Title != "Series a 130" || f.Items[99].Title != "Series a 31" {
		t.Fatalf("%d entries, first %q last %q", len(f.Items), f.Items[0].Title, f.Items[len(f.Items)-1].Title)
	}
	url, _ = w.svc.RotateFeed(w.ctx, other.ID)
	body, err = w.svc.Feed(w.ctx, feedToken(t, url))
	if err != nil {
		t.Fatal(err)
	}
	if f, err = gofeed.NewParser().ParseString(string(body)); err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, it := range f.Items {
		titles = append(titles, it.Title)
	}
	if len(titles) != 1 || titles[0] != "Series b 2" {
		t.Fatalf("the second Reader's feed holds %q, want only the event of the last 30 days", titles)
	}
}
