package readernotice_test

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
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

// shown is what a feed reader shows of an Atom text construct (RFC 4287
// section 3.1): a "text" one as it is; an "html" one as the text an HTML
// parser finds in it, its tags taken as markup.
func shown(t *testing.T, typ, content string) string {
	t.Helper()
	if typ == "" || typ == "text" {
		return content
	}
	doc, err := html.Parse(strings.NewReader(content))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}

// Site text reaches a feed reader as the Site wrote it: a chapter title
// holding tags is not markup, and "&" and "<" are characters. The feed
// also names its own URL (rel="self").
func TestAtomFeedShowsSiteTextAsWritten(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r, _ := w.st.UpsertReader(w.ctx, "9", "Dee", nil)
	w.bookmark(r.ID, "mangapill", "a")
	const title, chapter = "Kōgeki & <Zoë>", `Chapter 12 - <img src="x" /> <b>bold</b>`
	for _, n := range []string{"1", "2"} {
		if _, err := w.st.RecordOK(w.ctx, "mangapill", "a", store.ReadFacts{Title: title, Number: n, ChTitle: chapter,
			ChURL: "https://mangapill.example/a/" + n}, w.clk.Now()); err != nil {
			t.Fatal(err)
		}
	}
	set, err := w.svc.Settings(w.ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, err := w.svc.Feed(w.ctx, feedToken(t, set.FeedURL))
	if err != nil {
		t.Fatal(err)
	}
	f, err := gofeed.NewParser().ParseString(string(body))
	if err != nil || len(f.Items) != 1 {
		t.Fatalf("parse: %v\n%s", err, body)
	}
	// gofeed gives the constructs' content; their types say how a reader
	// shows it, and gofeed does not keep them, so they are read here.
	var raw struct {
		Entries []struct {
			Title struct {
				Type string `xml:"type,attr"`
			} `xml:"title"`
			Summary struct {
				Type string `xml:"type,attr"`
			} `xml:"summary"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(body, &raw); err != nil || len(raw.Entries) != 1 {
		t.Fatalf("%v\n%s", err, body)
	}
	e := raw.Entries[0]
	if got, want := shown(t, e.Title.Type, f.Items[0].Title), title+" 2"; got != want {
		t.Errorf("the title shows as %q, want %q", got, want)
	}
	want := "Chapter 2: " + chapter + " is out on mangapill."
	if got := shown(t, e.Summary.Type, f.Items[0].Description); got != want {
		t.Errorf("the summary (type %q) shows as %q, want %q", e.Summary.Type, got, want)
	}
	if f.FeedLink != set.FeedURL || f.Link != "http://mb.example/" {
		t.Errorf("feed links: self %q, alternate %q; want the feed's own URL and the library\n%s", f.FeedLink, f.Link, body)
	}
}

// The feed lists only what a notice would have been owed for: nothing
// that came out before the Reader bookmarked the Series (an import of a
// library the Lanes already read tells of no past chapters).
func TestAtomFeedLeavesOutChaptersBeforeTheBookmark(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	early, _ := w.st.UpsertReader(w.ctx, "9", "", nil)
	late, _ := w.st.UpsertReader(w.ctx, "10", "", nil)
	w.bookmark(early.ID, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.clk.Add(time.Minute)
	if _, err := w.st.AddBookmark(w.ctx, late.ID, "mangapill", "a", "https://mangapill.example/a"); err != nil {
		t.Fatal(err)
	}
	storetest.SetBookmarks(w.ctx, t, w.st, storetest.BookmarkSet{ReaderID: late.ID, CreatedAt: storetest.At(w.clk.Now())})
	w.clk.Add(time.Minute)
	w.read("mangapill", "a", "3")
	titles := func(readerID int64) []string {
		url, err := w.svc.RotateFeed(w.ctx, readerID)
		if err != nil {
			t.Fatal(err)
		}
		body, err := w.svc.Feed(w.ctx, feedToken(t, url))
		if err != nil {
			t.Fatal(err)
		}
		f, err := gofeed.NewParser().ParseString(string(body))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range f.Items {
			out = append(out, it.Title)
		}
		return out
	}
	if got := titles(early.ID); strings.Join(got, ",") != "Series a 3,Series a 2" {
		t.Fatalf("the early Reader's feed: %q", got)
	}
	if got := titles(late.ID); strings.Join(got, ",") != "Series a 3" {
		t.Fatalf("the Reader who bookmarked after chapter 2 sees %q, want only chapter 3", got)
	}
	if n := w.count(`SELECT count(*) FROM reader_notices WHERE reader_id = $1`, late.ID); n != 1 {
		t.Fatalf("%d notices owed to the late Reader, want 1 (the feed follows the same rule)", n)
	}
}
