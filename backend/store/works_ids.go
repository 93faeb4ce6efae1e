package store

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"mangabookmark/backend/muid"
	"mangabookmark/backend/safetext"
)

// The canonical form of an external id (docs/adr/0021-works-link-by-ids.md,
// addendum "One MangaUpdates id"): every id the store keeps, whoever gave
// it, goes through CanonicalExternalID, so two Series that carry one story's
// id in two forms carry one value and link.

// The kinds of external id (sites.IDKinds; store imports no Site code).
const (
	KindMangaUpdates       = muid.Kind       // MangaUpdates' API number
	KindMangaUpdatesLegacy = muid.KindLegacy // a pre-2022 MangaUpdates id
)

// idKindList is the kinds in the order a refusal names them.
var idKindList = []string{"al", "mal", KindMangaUpdates, KindMangaUpdatesLegacy, "kt", "md", "mb"}

var (
	numberIDRE = regexp.MustCompile(`^[0-9]{1,12}$`)
	uuidIDRE   = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// numberIDForms are the sentences saying what a numeric id of each kind
// looks like, with where a person finds it.
var numberIDForms = map[string]string{
	"al":  "an al id is AniList's number, such as 30002 in anilist.co/manga/30002",
	"mal": "a mal id is MyAnimeList's number, such as 2 in myanimelist.net/manga/2",
	"kt":  "a kt id is Kitsu's number (not its slug), such as 23040 in kitsu.app/manga/23040",
	"mb":  "an mb id is MangaBaka's number, such as 598986 in mangabaka.org/598986",
}

// CanonicalExternalID answers the id in the one form the store keeps, or
// an *IDError naming the kind and the form expected:
//   - mu and mu_legacy go through muid.Parse: a URL id (7 characters of
//     base 36) or an API number (9 or more digits) is kind mu with the API
//     number; digits up to 200591 are kind mu_legacy, never converted;
//   - al, mal, kt and mb are positive numbers of at most 12 digits,
//     written without leading zeros;
//   - md is a MangaDex UUID, lower-cased.
//
// Kind may change (mu to mu_legacy); Source is kept and checked.
func CanonicalExternalID(id ExternalID) (ExternalID, error) {
	if !idKinds[id.Kind] {
		return id, &IDError{Reason: fmt.Sprintf("%q is not a kind of external id (%s).", safetext.Line(id.Kind), strings.Join(idKindList, ", "))}
	}
	if !idSources[id.Source] {
		return id, &IDError{Reason: fmt.Sprintf("%q is not a source of external ids.", safetext.Line(id.Source))}
	}
	if len(id.Value) > maxIDValue {
		return id, &IDError{Reason: fmt.Sprintf("the value of an external id is at most %d characters.", maxIDValue)}
	}
	v := strings.TrimSpace(id.Value)
	switch id.Kind {
	case KindMangaUpdates, KindMangaUpdatesLegacy:
		kind, value, err := muid.Parse(v, id.Kind == KindMangaUpdatesLegacy)
		var me *muid.Error
		if errors.As(err, &me) {
			return id, &IDError{Reason: fmt.Sprintf("not an id of kind %s: %s.", id.Kind, safetext.Line(me.Reason))}
		}
		id.Kind, id.Value = kind, value
	case "md":
		v = strings.ToLower(v)
		if !uuidIDRE.MatchString(v) || strings.Trim(v, "0-") == "" {
			return id, &IDError{Reason: "not an id of kind md: an md id is a MangaDex UUID, such as a1c7c817-4e59-43b7-9365-09675a149a6f in mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f."}
		}
		id.Value = v
	default:
		n, err := strconv.ParseUint(v, 10, 64)
		if !numberIDRE.MatchString(v) || err != nil || n == 0 {
			return id, &IDError{Reason: fmt.Sprintf("not an id of kind %s: %s.", id.Kind, numberIDForms[id.Kind])}
		}
		id.Value = strconv.FormatUint(n, 10)
	}
	return id, nil
}

// CheckExternalID says whether the store keeps this id (in any of its
// forms: CanonicalExternalID); a refusal is an *IDError.
func CheckExternalID(id ExternalID) error {
	_, err := CanonicalExternalID(id)
	return err
}
