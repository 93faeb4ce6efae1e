package store_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// evil is issue 13's terminal-escape title: OSC 0, BEL, ESC[2J and a raw
// 0x9b byte, plus the C1 CSI as a character.
const evil = "\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m\u009b"

// dirty reports a control character or an invalid byte.
func dirty(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) }) >= 0
}

// Text from a Site or a person is stored without control characters and
// bounded: titles, chapter titles, pause reasons, names at 300 characters,
// URLs at 2048 (docs/adr/0011-text-hygiene.md).
func TestStoredTextIsClean(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	longURL := "https://mangapill.com/manga/1/x?" + strings.Repeat("a", 5000) + "\x1b[2J"
	if _, err := st.EnsureSeries(ctx, "mangapill", "1", "https://mangapill.com/manga/1/x\x1b]0;t\x07"); err != nil {
		t.Fatal(err)
	}
	_, err := st.RecordOK(ctx, "mangapill", "1", store.ReadFacts{Title: evil + strings.Repeat("T", 4<<20),
		CoverURL: longURL, Number: "3", ChTitle: "Chapter 3\x1b]52;c;aGk=\x07", ChURL: "https://mangapill.com/chapters/3\x9b"}, now)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.GetSeries(ctx, "mangapill", "1")
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"url": s.URL, "title": s.Title, "cover": s.CoverURL, "chapter title": s.LatestTitle, "chapter url": s.LatestURL} {
		if dirty(v) {
			t.Errorf("%s stored with a control character: %q", name, v)
		}
	}
	if n := utf8.RuneCountInString(s.Title); n != 300 || !strings.HasPrefix(s.Title, "]0;pwnedEvil[2J Title") {
		t.Errorf("title stored as %d characters (%.40q), want the clean text cut to 300", n, s.Title)
	}
	if n := utf8.RuneCountInString(s.CoverURL); n != 2048 {
		t.Errorf("cover URL stored as %d characters, want 2048", n)
	}

	l, err := st.PauseLane(ctx, "mangapill", now.Add(time.Hour), evil+strings.Repeat("r", 1000))
	if err != nil || dirty(l.PauseReason) || utf8.RuneCountInString(l.PauseReason) > 300 {
		t.Errorf("pause reason stored as %q (%v)", l.PauseReason, err)
	}
	r, err := st.UpsertReader(ctx, "500000000000000005", "Ann"+evil, nil)
	if err != nil || dirty(r.Name) {
		t.Fatalf("reader name stored as %q (%v)", r.Name, err)
	}
	tok, err := st.InsertToken(ctx, r.ID, "laptop"+evil, []byte("0123456789abcdef0123456789abcdef"), now)
	if err != nil || dirty(tok.Name) || dirty(tok.ReaderName) {
		t.Errorf("token stored as %q for %q (%v)", tok.Name, tok.ReaderName, err)
	}
	if _, err := st.AddBookmark(ctx, r.ID, "mangapill", "2", "https://mangapill.com/manga/2/y\x1b[2J"); err != nil {
		t.Fatal(err)
	}
	if s2, err := st.GetSeries(ctx, "mangapill", "2"); err != nil || dirty(s2.URL) {
		t.Errorf("bookmark URL stored as %q (%v)", s2.URL, err)
	}
}

// Directional marks (U+200E, U+200F, U+061C) move dots and digits around
// them on screen, so they are dropped when a read is stored, with every
// embedding, override and isolate (issue 33; the review's X1r found the
// marks in titles, ntfy's Title and the CSV export).
func TestReadsAreStoredWithoutBidiControls(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	marks := "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
	if _, err := st.EnsureSeries(ctx, "mangapill", "1", "https://mangapill.com/manga/1/x"+marks); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordOK(ctx, "mangapill", "1", store.ReadFacts{Title: "Invoice\u200f.exe \u061c12\u200e " + marks + "end",
		Number: "3", ChTitle: "Chapter\u200f 3", ChURL: "https://mangapill.com/chapters/3\u200e"}, now); err != nil {
		t.Fatal(err)
	}
	s, err := st.GetSeries(ctx, "mangapill", "1")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string][2]string{
		"title":         {s.Title, "Invoice.exe 12 end"},
		"chapter title": {s.LatestTitle, "Chapter 3"},
		"chapter url":   {s.LatestURL, "https://mangapill.com/chapters/3"},
		"url":           {s.URL, "https://mangapill.com/manga/1/x"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s stored as %+q, want %q (the bidi controls dropped, the text kept)", name, c[0], c[1])
		}
	}
}
