package sites

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Bounds on a chapter number: anything past them is treated as no number at
// all rather than stored as a bogus Latest Chapter.
const (
	maxIntDigits  = 6
	maxFracDigits = 4
)

// ParseNumber normalises a decimal chapter number: "012.50" becomes "12.5",
// "7" stays "7". It accepts only plain non-negative decimals (no sign,
// exponent, or separators) of at most six integer and four fraction digits.
func ParseNumber(s string) (string, bool) {
	s = strings.TrimSpace(s)
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || !allDigits(intPart) || (hasDot && (frac == "" || !allDigits(frac))) {
		return "", false
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	frac = strings.TrimRight(frac, "0")
	if len(intPart) > maxIntDigits || len(frac) > maxFracDigits {
		return "", false
	}
	if frac == "" {
		return intPart, true
	}
	return intPart + "." + frac, true
}

// NumberFromFloat formats a JSON chapter number (12.5, 105) as a decimal
// string, rejecting NaN, infinities, negatives and out-of-bounds values.
func NumberFromFloat(f float64) (string, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f >= 1e6 {
		return "", false
	}
	return ParseNumber(strconv.FormatFloat(f, 'f', -1, 64))
}

// chapterWord finds "Chapter 12", "Ch. 12.5", "ch12" as a word: the number
// must follow the chapter word, so "S2 Chapter 3" yields 3 and "Special 2"
// yields nothing.
var chapterWord = regexp.MustCompile(`(?i)(?:^|[^a-z])ch(?:apter|\.|p)?\s*[.:#]?\s*(\d{1,12}(?:\.\d{1,12})?)(?:[^\d.]|$)`)

// NumberFromJSON reads a chapter number a Site sends as a JSON string
// ("12.5") or number (12.5); null or anything else gives false.
func NumberFromJSON(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ParseNumber(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return NumberFromFloat(f)
	}
	return "", false
}

// NumberFromName extracts the chapter number from a display name such as
// "Chapter 105.5" or "Vol.2 Chapter 10: The End". Names without a chapter
// word followed by a number ("Special 2", "Oneshot") give false.
func NumberFromName(name string) (string, bool) {
	m := chapterWord.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return ParseNumber(m[1])
}

// ChapterTitle is the Site's chapter name, trimmed, or "Chapter {number}"
// when the Site gives none.
func ChapterTitle(name, number string) string {
	if name = strings.TrimSpace(name); name != "" {
		return name
	}
	return "Chapter " + number
}

// CompareNumbers compares two numbers normalised by ParseNumber, returning
// -1, 0 or +1. Unparseable input sorts below any number.
func CompareNumbers(a, b string) int {
	na, okA := ParseNumber(a)
	nb, okB := ParseNumber(b)
	switch {
	case !okA && !okB:
		return 0
	case !okA:
		return -1
	case !okB:
		return 1
	}
	ia, fa, _ := strings.Cut(na, ".")
	ib, fb, _ := strings.Cut(nb, ".")
	if len(ia) != len(ib) {
		return sign(len(ia) - len(ib))
	}
	if c := strings.Compare(ia, ib); c != 0 {
		return c
	}
	for len(fa) < len(fb) {
		fa += "0"
	}
	for len(fb) < len(fa) {
		fb += "0"
	}
	return strings.Compare(fa, fb)
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
