package safetext

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Show renders untrusted text for a terminal: each C0 control becomes its
// Control Picture (ESC shows as ␛, BEL as ␇), DEL shows as ␡, C1 controls,
// bidirectional overrides and bytes that are not UTF-8 show as \xNN or
// \uNNNN. What it returns holds no byte a terminal acts on, and clean text
// comes back unchanged. Every table and view of mbctl and the dashboard
// renders Site and person text through it.
func Show(s string) string {
	if !needsShow(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case IsControl(r) || IsBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsShow(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || IsControl(r) || IsBidiControl(r) {
			return true
		}
		i += size
	}
	return false
}

// EscapeJSON rewrites JSON text (as encoding/json writes it: valid UTF-8)
// so that DEL and the C1 controls U+0080–U+009F, which encoding/json
// leaves raw, appear as \u escapes; the decoded value is unchanged. Those
// characters can only occur inside JSON strings, so the rewrite is exact.
func EscapeJSON(js []byte) []byte {
	if !bytes.ContainsFunc(js, func(r rune) bool { return r >= 0x7f && r <= 0x9f }) {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r >= 0x7f && r <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, js[i:i+size]...)
		}
		i += size
	}
	return out
}
