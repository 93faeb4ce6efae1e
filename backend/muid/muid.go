package muid

import (
	"fmt"
	"strconv"
	"strings"
)

// The kinds of MangaUpdates id (the store's and the Sites' words).
const (
	Kind       = "mu"        // the API number, canonical
	KindLegacy = "mu_legacy" // a pre-2022 id, kept apart
)

// MaxLegacy is the last legacy id (Neko's MangaUpdatesHelper: "200591 is
// the last ID of the old IDs"). A digit string at or below it is legacy.
const MaxLegacy = 200591

// URLIDLen is the length of every URL id in use: the API number in base
// 36, padded with leading zeros to seven characters (0rpf7qa is
// 1675287010: a URL decoded and checked against MangaUpdates' API in a
// public client's tests, code index id 67381055114), up to zzzzzzz
// (78,364,164,095).
const URLIDLen = 7

// minAPIDigits is the fewest digits a value must have to be read as the
// API number written in decimal. The contract says 9; 8 is accepted too,
// because a zero-padded URL id (01xxxxx) writes an API number of 8 digits,
// and the canonical value must read as itself. Seven digits are a URL id.
const minAPIDigits = 8

// minAPINumber is the smallest API number a URL id may write: below it the
// decimal would have 7 digits or fewer and read as a URL id or a legacy id.
const minAPINumber = 10_000_000

// Forms is the sentence a refusal ends with: the forms a value may take.
const Forms = "a MangaUpdates id is the 7-character URL id (rmnzb04, as in mangaupdates.com/series/rmnzb04), the API number (8 or more digits, 60143657332) or a pre-2022 id (digits up to 200591)"

// Error is a refused MangaUpdates id, with the reason.
type Error struct{ Reason string }

func (e *Error) Error() string { return "muid: " + e.Reason }

// Parse reads one MangaUpdates id value (no link: the caller takes the
// id out of a URL) in any form and answers its canonical kind and value:
// (mu, the API number in decimal) for a URL id or an API number,
// (mu_legacy, the digits) for a legacy id. legacyOnly is true when the
// value came from an old series.html?id= link or a mu_legacy kind: then
// only a legacy id is accepted. Upper case is read as lower case.
func Parse(raw string, legacyOnly bool) (kind, value string, err error) {
	v := strings.ToLower(strings.TrimSpace(raw))
	if v == "" {
		return "", "", &Error{"empty: " + Forms}
	}
	if len(v) > 20 {
		return "", "", &Error{"too long: " + Forms}
	}
	digits := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z':
			digits = false
		default:
			return "", "", &Error{fmt.Sprintf("%q holds a character that is not a letter or digit: %s", v, Forms)}
		}
	}
	if v[0] == '0' && len(v) != URLIDLen { // only a URL id is padded with zeros
		return "", "", &Error{fmt.Sprintf("%q starts with 0: %s", v, Forms)}
	}
	if digits && v[0] != '0' {
		n, err := strconv.ParseUint(v, 10, 63)
		if err != nil {
			return "", "", &Error{fmt.Sprintf("%q is past the largest API number: %s", v, Forms)}
		}
		if n <= MaxLegacy {
			return KindLegacy, v, nil
		}
		if legacyOnly {
			return "", "", &Error{fmt.Sprintf("%q is past %d, the last pre-2022 id", v, MaxLegacy)}
		}
		if len(v) >= minAPIDigits {
			return Kind, v, nil
		}
	} else if legacyOnly {
		return "", "", &Error{fmt.Sprintf("%q is not digits: a pre-2022 MangaUpdates id is digits up to %d", v, MaxLegacy)}
	}
	if len(v) != URLIDLen {
		return "", "", &Error{fmt.Sprintf("%q is neither a 7-character URL id nor an API number: %s", v, Forms)}
	}
	n, err := strconv.ParseUint(v, 36, 63)
	if err != nil || n < minAPINumber {
		return "", "", &Error{fmt.Sprintf("%q is below every URL id in use: %s", v, Forms)}
	}
	return Kind, strconv.FormatUint(n, 10), nil
}

// URLID writes a canonical mu value (the API number) as the URL id, the
// form MangaBaka's source lookup and mangaupdates.com/series/ links take:
// base 36, padded with zeros to seven characters.
// ok is false for a value that is not an API number.
func URLID(apiNumber string) (string, bool) {
	n, err := strconv.ParseUint(apiNumber, 10, 63)
	if err != nil || n < minAPINumber || apiNumber[0] == '0' {
		return "", false
	}
	s := strconv.FormatUint(n, 36)
	if len(s) < URLIDLen {
		s = strings.Repeat("0", URLIDLen-len(s)) + s
	}
	return s, true
}
