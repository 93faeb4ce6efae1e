package safetext

import (
	"strings"
	"unicode/utf8"
)

// Bounds of stored text, in characters (runes).
const (
	MaxLine = 300  // titles, chapter titles, reasons, names
	MaxURL  = 2048 // URLs
)

// IsControl reports whether r is a C0 control, DEL or a C1 control.
func IsControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

// IsBidiControl reports whether r is a bidirectional formatting character:
// an embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069),
// which reorder what a Reader sees so "evil.exe" can show as "exe.live",
// or a directional mark (U+200E LEFT-TO-RIGHT MARK, U+200F RIGHT-TO-LEFT
// MARK, U+061C ARABIC LETTER MARK), which move neutral characters such as
// dots and digits. None is visible, none is needed in a title.
func IsBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// Line cleans one line of text for storage: whitespace controls (tab, line
// breaks) become a space, every other control character and every bidi
// control (IsBidiControl) is dropped, invalid UTF-8 becomes U+FFFD, the ends are trimmed and the result is cut
// to MaxLine characters.
func Line(s string) string {
	return clean(s, MaxLine, true)
}

// URL cleans a URL for storage: control characters, bidi controls (and invalid UTF-8) are
// dropped and the result is cut to MaxURL characters.
func URL(s string) string {
	return clean(s, MaxURL, false)
}

func clean(s string, limit int, spaces bool) string {
	if isClean(s, limit) {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	b.Grow(min(len(s), limit*4))
	n := 0
	for i := 0; i < len(s) && n < limit; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			if !spaces {
				continue
			}
			r = utf8.RuneError
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			if !spaces {
				continue
			}
			r = ' '
		case IsControl(r), IsBidiControl(r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// isClean reports whether s is valid UTF-8 of at most limit characters
// with no control character, the common case, which costs no allocation.
func isClean(s string, limit int) bool {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError || IsControl(r) || IsBidiControl(r) {
			return false
		}
		n++
		if n > limit {
			return false
		}
	}
	return true
}
