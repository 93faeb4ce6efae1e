package safetext_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"mangabookmark/backend/safetext"
)

// hostile is the title from issue 13: OSC 0 retitles the terminal, ESC[2J
// clears it, and a raw 0x9b byte (8-bit CSI) follows; plus the C1 CSI as a
// rune, OSC 52 (clipboard) and OSC 8 (link) and a bidi override.
var hostile = []string{
	"\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m",
	"Evil\u009b31m Title",
	"\x1b]52;c;cHduZWQ=\x07clip",
	"\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",
	"a\u202eevil\u202c b",
	"marks\u200f.exe\u200e \u061c1",
	"tab\there\nnew\rline\x00nul\x7fdel",
}

// hasControl reports any C0, DEL or C1 rune, and any invalid byte.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.IndexFunc(s, safetext.IsControl) >= 0
}

func TestLineDropsControlsAndCuts(t *testing.T) {
	for _, s := range hostile {
		got := safetext.Line(s)
		if hasControl(got) {
			t.Errorf("Line(%q) = %q still holds a control character", s, got)
		}
	}
	if got := safetext.Line("\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m"); got != "]0;pwnedEvil[2J Title\uFFFD31m" {
		t.Errorf("Line kept or lost the wrong text: %q", got)
	}
	if got := safetext.Line("tab\there\nnew"); got != "tab here new" {
		t.Errorf("whitespace controls: %q", got)
	}
	if got := safetext.Line("  Plain title  "); got != "Plain title" {
		t.Errorf("clean text: %q", got)
	}
	long := strings.Repeat("é", 4<<20)
	if got := safetext.Line(long); utf8.RuneCountInString(got) != safetext.MaxLine {
		t.Errorf("a 4 MiB line became %d characters, want %d", utf8.RuneCountInString(got), safetext.MaxLine)
	}
	if got := safetext.Line(strings.Repeat("a", safetext.MaxLine)); len(got) != safetext.MaxLine {
		t.Errorf("a line of exactly MaxLine was cut to %d", len(got))
	}
}

func TestURLDropsControlsAndCuts(t *testing.T) {
	if got := safetext.URL("https://a.example/x\x1b[2J\ny\u0085z\xff"); got != "https://a.example/x[2Jyz" {
		t.Errorf("URL: %q", got)
	}
	if got := safetext.URL("https://a.example/" + strings.Repeat("a", 10000)); len(got) != safetext.MaxURL {
		t.Errorf("URL cut to %d, want %d", len(got), safetext.MaxURL)
	}
}

func TestShowMakesControlsVisible(t *testing.T) {
	for _, s := range hostile {
		got := safetext.Show(s)
		if hasControl(got) || strings.ContainsAny(got, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c") {
			t.Errorf("Show(%q) = %q still holds a control character", s, got)
		}
	}
	if got := safetext.Show("\x1b]0;pwned\x07Evil\x1b[2J Title\x9b31m"); got != `␛]0;pwned␇Evil␛[2J Title\x9b31m` {
		t.Errorf("Show: %q", got)
	}
	if got := safetext.Show("Evil\u009b31m\x7f"); got != `Evil\u009b31m␡` {
		t.Errorf("Show C1: %q", got)
	}
	if s := "Plain — title 日本"; safetext.Show(s) != s {
		t.Errorf("clean text changed: %q", safetext.Show(s))
	}
}

func TestEscapeJSON(t *testing.T) {
	v := map[string]string{"title": "Evil\u009b31m\x7f \x1b[2J ok — é"}
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.ContainsRune(string(js), 0x9b) {
		t.Fatal("encoding/json no longer passes U+009B raw; EscapeJSON may be unneeded")
	}
	out := safetext.EscapeJSON(js)
	if hasControl(string(out)) {
		t.Errorf("EscapeJSON left a control character: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["title"] != v["title"] {
		t.Errorf("EscapeJSON changed the value: %q %v", back["title"], err)
	}
}

func BenchmarkLineClean(b *testing.B) {
	s := "An ordinary Series title of a usual length"
	for b.Loop() {
		_ = safetext.Line(s)
	}
}

func BenchmarkShowClean(b *testing.B) {
	s := "An ordinary Series title of a usual length"
	for b.Loop() {
		_ = safetext.Show(s)
	}
}

func BenchmarkLineHostile4MiB(b *testing.B) {
	s := strings.Repeat("\x1b[2J Evil ", (4<<20)/10)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = safetext.Line(s)
	}
}

// A Site's title with bidi controls would show reordered text to a
// Reader (issue 23, issue 33): every embedding, override, isolate and
// directional mark is dropped.
func TestLineDropsBidiControls(t *testing.T) {
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c} {
		in := "Chapter " + string(r) + "01 txt.exe"
		if got := safetext.Line(in); got != "Chapter 01 txt.exe" {
			t.Errorf("safetext.Line(%q) = %q, want the override dropped", in, got)
		}
		if got := safetext.URL("https://x.test/" + string(r) + "a"); got != "https://x.test/a" {
			t.Errorf("URL with U+%04X = %q", r, got)
		}
	}
	if got := safetext.Line("עברית and العربية"); got != "עברית and العربية" {
		t.Errorf("right-to-left text itself must stay: %q", got)
	}
}
