package imports

import (
	"net/url"
	"regexp"
	"strings"
)

// uuidRe is a MangaDex id.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ListID returns the id of a public MangaDex list URL
// (https://mangadex.org/list/{uuid}, with or without a slug after it).
func ListID(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return "", false
	}
	if h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."); h != "mangadex.org" {
		return "", false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 || parts[0] != "list" || !uuidRe.MatchString(parts[1]) {
		return "", false
	}
	return strings.ToLower(parts[1]), true
}

// fromMangaDexList makes a mangadex_list import: its Series are read from
// MangaDex by the import service (Config.MangaDexList), not from the body.
func fromMangaDexList(raw string) (*Parsed, error) {
	id, ok := ListID(raw)
	if !ok {
		return nil, errorf(ErrUnreadable, `"mangadex_list" is not a MangaDex list URL: send one such as https://mangadex.org/list/{id}`)
	}
	return &Parsed{Kind: KindMangaDexList, Source: "https://mangadex.org/list/" + id}, nil
}
