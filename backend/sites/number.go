package sites

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
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

// chapterWord finds "Chapter 12", "Ch. 12.5", "ch12", "Episode 139.5" or
// "Ep. 4" as a word: the number must follow the chapter word, so "S2
// Chapter 3" yields 3.
var chapterWord = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:ch(?:apter|ap|p|\.)?|episode|eps?\.?)\s*[.:#]?\s*(\d{1,12}(?:\.\d{1,12})?)(?:[^\d.]|$)`)

// labelWord is a row label of one word (any letters) and a number at its
// start: "Navigation 67.5", "Suggestion 192: Title", or a bare "105".
var labelWord = regexp.MustCompile(`^\s*(?:(\p{L}+)\.?\s*)?#?\s*(\d{1,12}(?:\.\d{1,12})?)(.*)$`)

// notChapterWords are label words whose number is not a chapter number.
var notChapterWords = map[string]bool{
	"special": true, "specials": true, "extra": true, "extras": true, "omake": true, "bonus": true,
	"side": true, "oneshot": true, "volume": true, "vol": true, "v": true, "tome": true, "book": true,
	"season": true, "s": true, "part": true, "pt": true, "arc": true, "year": true, "version": true,
	"ver": true, "prologue": true, "epilogue": true, "notice": true, "announcement": true, "update": true,
	"hiatus": true, "chapter": true, "ch": true, "chp": true, "chap": true, "episode": true, "ep": true, "eps": true,
}

// fromLabelWord reads the number of a "{Word} {N}" label; see NumberFromName.
func fromLabelWord(name string) (string, bool) {
	m := labelWord.FindStringSubmatch(name)
	if m == nil || notChapterWords[strings.ToLower(m[1])] {
		return "", false
	}
	if rest := m[3]; rest != "" {
		r := rest[0]
		if r == '.' || r == '/' || r == '_' || r == ',' || (r >= '0' && r <= '9') || isLetter(rest) {
			return "", false // "12abc", "12/05/2023", "1.2.3"
		}
		if r == '-' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
			return "", false // a date "2024-05-01" or a range
		}
	}
	if len(m[2]) == 4 && (strings.HasPrefix(m[2], "19") || strings.HasPrefix(m[2], "20")) {
		return "", false // "Summer 2023": a year, not a chapter
	}
	return ParseNumber(m[2])
}

func isLetter(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r)
	}
	return false
}

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

// NumberFromName extracts the chapter number from a row label. A number
// after a chapter word ("Chapter 105.5", "Vol.2 Chapter 10: The End",
// "Episode 139.5") is taken first. Otherwise a label that is one word of any
// kind and a number ("Navigation 67.5", "Suggestion 192") gives that number,
// since Sites such as WeebCentral label rows with the source's own word.
// Refused: labels without a number ("Epilogue"), words that name something
// else ("Special 2", "Volume 3", "Season 2", "Side Story 3"), years
// ("Summer 2023"), dates ("2024-05-01") and numbers glued to more text.
func NumberFromName(name string) (string, bool) {
	if m := chapterWord.FindStringSubmatch(name); m != nil {
		return ParseNumber(m[1])
	}
	return fromLabelWord(name)
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
