package sites

import (
	"strings"

	"mangabookmark/backend/safetext"
)

// MaxAltTitles is the most alternative titles one read keeps: real Series
// carry a handful to a few dozen, and a page listing thousands is cut here
// rather than refused.
const MaxAltTitles = 32

// AddAltTitle appends the cleaned title t (safetext.Line: no control or
// bidi character, at most safetext.MaxLine characters) to f.AltTitles,
// unless it is empty, equals the Series' Title or one already kept
// (ignoring case), or MaxAltTitles are kept. It reports whether more may
// follow, so a parser stops walking a hostile list at the bound.
func (f *Facts) AddAltTitle(t string) bool {
	if len(f.AltTitles) >= MaxAltTitles {
		return false
	}
	t = safetext.Line(t)
	if t == "" || strings.EqualFold(t, f.Title) {
		return true
	}
	for _, have := range f.AltTitles {
		if strings.EqualFold(have, t) {
			return true
		}
	}
	f.AltTitles = append(f.AltTitles, t)
	return len(f.AltTitles) < MaxAltTitles
}
