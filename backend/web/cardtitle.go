package web

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// cardTitle is a story's title as a card shows it and its cover's initial:
// the stored title; before the Lane's first read, the title the Reader's
// import or phone gave it (given, the Reader's own word: never another
// Reader's), else the words of the Series URL's slug
// ("/title/01ab…/the-summer-story" is "The Summer Story"); else
// "Untitled on {site}", never the raw id. The initial is the title's
// first letter, upper-cased, or a neutral glyph when it has none (a title
// of digits gives no "0" cover).
func cardTitle(title, given, rawURL, site string) (string, string) {
	title = strings.TrimSpace(title)
	if title == "" {
		title = strings.TrimSpace(given)
	}
	if title == "" {
		title = slugTitle(rawURL)
	}
	if title == "" {
		title = "Untitled on " + site
	}
	initial := "•"
	for _, r := range title {
		if unicode.IsLetter(r) {
			initial = string(unicode.ToUpper(r))
			break
		}
	}
	return title, initial
}

// slugWords are path segments that name a Site's section, never a story.
var slugWords = []string{"title", "titles", "manga", "manhwa", "manhua", "series", "comic", "comics", "webtoon", "webtoons",
	"read", "book", "books", "work", "works", "chapter", "chapters", "en", "g", "m"}

// slugTitle is the title a Series URL's slug spells, "" when its path
// has none: the last segment that reads as words once split at "-" and
// "_" (a trailing ".123" or "-a1b2c3" id cut, ids and section words
// skipped), each word capitalised.
func slugTitle(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg, err := url.PathUnescape(segs[i])
		if err != nil {
			continue
		}
		if dot := strings.LastIndexByte(seg, '.'); dot > 0 && (idLike(seg[dot+1:]) || strings.Trim(seg[dot+1:], "0123456789") == "" ||
			slices.Contains([]string{"html", "htm", "php"}, strings.ToLower(seg[dot+1:]))) {
			seg = seg[:dot]
		}
		words := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == ' ' })
		// An id at either end ("a1b2c-the-story", "the-story-1234") goes;
		// a number inside the words ("kaiju-no-8") stays.
		for len(words) > 1 && idLike(words[0]) {
			words = words[1:]
		}
		for len(words) > 1 && idLike(words[len(words)-1]) {
			words = words[:len(words)-1]
		}
		if len(words) == 0 || (len(words) == 1 && (idLike(words[0]) || slices.Contains(slugWords, strings.ToLower(words[0])))) ||
			!strings.ContainsFunc(seg, unicode.IsLetter) || uuidLike(seg) {
			continue
		}
		for j, w := range words {
			r := []rune(w)
			words[j] = string(unicode.ToUpper(r[0])) + string(r[1:])
		}
		return strings.Join(words, " ")
	}
	return ""
}

// idLike reports whether a word is an id rather than a word of a title:
// digits and letters mixed (a hash, a ULID), or more than three digits
// alone ("86" and "8" are words of titles).
func idLike(w string) bool {
	digits, letters := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		default:
			return false
		}
	}
	return digits > 0 && (letters > 0 || digits > 3)
}

// uuidLike reports whether a segment is a UUID (8-4-4-4-12 hex digits).
func uuidLike(seg string) bool {
	parts := strings.Split(seg, "-")
	if len(parts) != 5 {
		return false
	}
	for i, n := range []int{8, 4, 4, 4, 12} {
		if len(parts[i]) != n || strings.Trim(strings.ToLower(parts[i]), "0123456789abcdef") != "" {
			return false
		}
	}
	return true
}
