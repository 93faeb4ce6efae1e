package readernotice_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// A Digest of 40 chapters with long titles of two-byte characters is over
// Discord's 2000 characters of content (Discord's "Execute Webhook":
// content, up to 2000 characters; checked 2026-12). The message lists
// the chapters that fit, whole lines in order, then "… and N more" with
// the library, as ntfy does, and is measured in characters: a cut by bytes
// would list half as many.
func TestDiscordDigestSaysHowManyMore(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	w := newWorld(t, func(c *readernotice.Config) { c.DiscordURL = h.URL + "/discord" })
	r, _ := w.st.UpsertReader(w.ctx, "77", "Bo", nil)
	on := true
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{Discord: &on, DigestS: new(int)}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	chars := 0
	for i := range 40 {
		id := fmt.Sprintf("s%02d", i)
		title := fmt.Sprintf("Kōgeki %02d ", i) + strings.Repeat("ōō", 20)
		url := "https://mangapill.example/chapters/" + id + "/2"
		w.bookmark(r.ID, "mangapill", id)
		for _, num := range []string{"1", "2"} {
			if _, err := w.st.RecordOK(w.ctx, "mangapill", id, store.ReadFacts{Title: title, Number: num, ChTitle: "ch", ChURL: url}, w.clk.Now()); err != nil {
				t.Fatal(err)
			}
		}
		line := title + " 2 (ch): " + url
		lines = append(lines, line)
		chars += utf8.RuneCountInString(line) + 1
	}
	if chars <= 2000 {
		t.Fatalf("the Digest is %d characters, not over Discord's limit: the test proves nothing", chars)
	}
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("Discord got %d messages, want 1", len(got))
	}
	var msg struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(got[0].Body, &msg); err != nil {
		t.Fatal(err)
	}
	n := utf8.RuneCountInString(msg.Content)
	if n > readernotice.DiscordContentMax {
		t.Fatalf("content is %d characters, over %d", n, readernotice.DiscordContentMax)
	}
	body := strings.Split(msg.Content, "\n")
	if !strings.HasPrefix(body[0], "<@77> 40 new chapters: ") {
		t.Fatalf("first line %q", body[0])
	}
	last := body[len(body)-1]
	var more int
	if _, err := fmt.Sscanf(last, "… and %d more: http://mb.example/", &more); err != nil || !strings.HasSuffix(last, ": http://mb.example/") {
		t.Fatalf("the last line %q does not say how many more, with the library", last)
	}
	listed := body[1 : len(body)-1]
	if len(listed)+more != 40 {
		t.Fatalf("%d chapters listed and %d more, want 40 in all", len(listed), more)
	}
	for i, l := range listed {
		if l != lines[i] {
			t.Errorf("listed line %d is %q, want the whole chapter line %q", i, l, lines[i])
		}
	}
	// Measured in characters, the message is full: one more line would
	// not have fitted.
	if n+utf8.RuneCountInString(lines[len(listed)])+1 <= readernotice.DiscordContentMax {
		t.Errorf("%d characters with %d lines listed: the next line (%d characters) would have fitted", n, len(listed), utf8.RuneCountInString(lines[len(listed)]))
	}
	t.Logf("a Digest of %d characters went as %d characters, %d chapters listed, %d more", chars, n, len(listed), more)
}
