package readernotice_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"mangabookmark/backend/store"
)

// The feed is checked by what real clients check, not only by a parser
// that takes anything (gofeed does not care about order):
//   - jing, the RELAX NG reference validator, with RFC 4287's own schema
//     (testdata/atom.rnc, Appendix B): the feed's metadata, links
//     included, come before its entries (section 4.1.1's grammar);
//   - the W3C Feed Validator's rules, written out below (its
//     src/feedvalidator/feed.py: every metadata element of atom:feed logs
//     MisplacedMetadata, "link must appear before all entries", once an
//     entry was seen; and the metadata checked at the first entry must
//     hold a link with rel="self", else MissingSelf).
//
// jing comes from Debian's package (.ci/run installs it); where it is
// missing the test says so and skips that half, except in CI, where it
// fails.
func TestAtomFeedValidatesAgainstRFC4287Schema(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r, _ := w.st.UpsertReader(w.ctx, "9", `Dee </title><link rel="self" href="https://evil.example/"/>`, nil)
	// Hostile Site text: markup that would close the title and add a feed
	// link, an entry, a CDATA end and a feed end, quotes and ampersands.
	hostile := []struct{ title, chapter string }{
		{`</title></entry><link rel="self" href="https://evil.example/feed"/><entry><title>`, `]]></summary></feed>`},
		{`Kōgeki & "Zoë" <b>`, `<![CDATA[ x ]]> &amp; &#0; 'q'`},
		{`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">`, `</feed><!-- -->`},
	}
	for i, h := range hostile {
		series := string(rune('a' + i))
		w.bookmark(r.ID, "mangapill", series)
		for _, n := range []string{"1", "2"} {
			if _, err := w.st.RecordOK(w.ctx, "mangapill", series, store.ReadFacts{Title: h.title, Number: n, ChTitle: h.chapter,
				ChURL: "https://mangapill.example/" + series + "/" + n + `?x="<&>"`}, w.clk.Now()); err != nil {
				t.Fatal(err)
			}
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
	links, entries, err := w3cFeedRules(body)
	if err != nil {
		t.Errorf("the W3C Feed Validator's rules: %v\n%s", err, body)
	}
	// Each hostile title reads back as written: text, not markup.
	var parsed struct {
		Entries []struct {
			Title string `xml:"title"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(body, &parsed); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, h := range hostile {
		want[h.title+" 2"] = true // chapter 1 is the baseline read: no event
	}
	for _, e := range parsed.Entries {
		if !want[e.Title] {
			t.Errorf("an entry's title reads %q, which is no title written", e.Title)
		}
		delete(want, e.Title)
	}
	if entries != len(parsed.Entries) || len(want) != 0 {
		t.Errorf("%d entries (%d parsed); titles missing: %v\n%s", entries, len(parsed.Entries), want, body)
	}
	if links["self"] != set.FeedURL || links["alternate"] != "http://mb.example/" {
		t.Errorf("the feed's links before its entries: %q; want self %q and alternate the library", links, set.FeedURL)
	}

	jing, err := exec.LookPath("jing")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("jing is not installed; .ci/run installs Debian's jing for this test")
		}
		t.Skip("jing is not installed (apt-get install jing): the RFC 4287 schema half is skipped")
	}
	feed := filepath.Join(t.TempDir(), "feed.atom")
	if err := os.WriteFile(feed, body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(jing, "-c", "testdata/atom.rnc", feed).CombinedOutput()
	if err != nil {
		t.Fatalf("jing with RFC 4287's schema refuses the feed: %v\n%s\n%s", err, out, body)
	}
}

// w3cFeedRules applies the W3C Feed Validator's order and self-link rules
// to an Atom feed: no metadata element of atom:feed after its first entry
// (MisplacedMetadata), and a rel="self" link among the metadata read by
// then (MissingSelf). It returns the feed's links by rel as read before the
// first entry, and the number of entries.
func w3cFeedRules(body []byte) (map[string]string, int, error) {
	const atom = "http://www.w3.org/2005/Atom"
	dec := xml.NewDecoder(bytes.NewReader(body))
	links := map[string]string{}
	depth, entries := 0, 0
	var errs []error
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return links, entries, err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 && (el.Name.Space != atom || el.Name.Local != "feed") {
				return links, entries, errors.New("the root is not atom:feed")
			}
			if depth != 2 {
				continue
			}
			switch {
			case el.Name.Space == atom && el.Name.Local == "entry":
				if entries == 0 && links["self"] == "" {
					errs = append(errs, errors.New(`MissingSelf: no link rel="self" before the first entry`))
				}
				entries++
			case entries > 0:
				errs = append(errs, errors.New("MisplacedMetadata: "+el.Name.Local+" must appear before all entries"))
			case el.Name.Space == atom && el.Name.Local == "link":
				rel, href := "alternate", ""
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "rel":
						rel = a.Value
					case "href":
						href = a.Value
					}
				}
				links[rel] = href
			}
		case xml.EndElement:
			depth--
		}
	}
	return links, entries, errors.Join(errs...)
}
