package readernotice_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
)

func TestLateTextNamesARefusedTracker(t *testing.T) {
	t.Parallel()
	d := readernotice.Digest{Late: []readernotice.Late{{Site: "anilist", State: "tracker_reconnect", Since: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}}}
	text := d.LateText()
	if !strings.Contains(text, "AniList token was refused") || !strings.Contains(text, "connect it again") || strings.Contains(text, "chapters there may be late") {
		t.Fatalf("late text: %q", text)
	}
}

func TestLateTextNamesMangaBaka(t *testing.T) {
	t.Parallel()
	d := readernotice.Digest{Late: []readernotice.Late{{Site: "mangabaka", State: "tracker_reconnect", Since: time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)}}}
	if text := d.LateText(); !strings.Contains(text, "Your MangaBaka token was refused") {
		t.Fatalf("late text: %q", text)
	}
}
