package imports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"mangabookmark/backend/jsonbody"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// jsonBody is every JSON shape POST /api/imports takes: a list of URLs, a
// MangaDex list, or this project's own export.
type jsonBody struct {
	URLs         *[]string     `json:"urls"`
	MangaDexList *string       `json:"mangadex_list"`
	Version      *int          `json:"version"`
	Bookmarks    *[]bookmarkIn `json:"bookmarks"`
}

// bookmarkIn is one bookmark of an export as the import reads it: the
// ExportRow, and the Series' external ids, read leniently (idsIn). The
// export's work_id is accepted and not read: an import links by ids, and
// a Work's number is this server's own.
type bookmarkIn struct {
	ExportRow
	IDs    json.RawMessage `json:"ids"`
	WorkID json.RawMessage `json:"work_id"`
}

// DecodeJSON reads a JSON import body: {"urls":[...]},
// {"mangadex_list":"..."} or an export ({"version":1,"bookmarks":[...]}).
// A "urls" or "bookmarks" list of more than MaxItems elements is refused
// (ErrTooLarge) as its MaxItems+1st element is reached, before any element
// is decoded; a body within the bound is then decoded as a whole, so its
// errors are encoding/json's own. A reader that cannot seek is read into
// memory first.
func DecodeJSON(r io.Reader) (*Parsed, error) {
	rs, ok := r.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, jsonProblem(err)
		}
		rs = bytes.NewReader(data)
	}
	start, err := rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, errorf(ErrUnreadable, "the body could not be read as JSON")
	}
	if err := countLists(rs); errors.Is(err, ErrTooLarge) {
		return nil, err
	}
	// Any other error countLists met, the decode meets again and names.
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return nil, errorf(ErrUnreadable, "the body could not be read as JSON")
	}
	return decodeJSON(rs)
}

// decodeJSON decodes a body whose lists are within MaxItems.
func decodeJSON(r io.Reader) (*Parsed, error) {
	var body jsonBody
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return nil, jsonProblem(err)
	}
	if dec.More() {
		return nil, errorf(ErrUnreadable, "the body must hold exactly one JSON object")
	}
	shapes := 0
	for _, set := range []bool{body.URLs != nil, body.MangaDexList != nil, body.Bookmarks != nil || body.Version != nil} {
		if set {
			shapes++
		}
	}
	switch {
	case shapes != 1:
		return nil, errorf(ErrUnreadable, `send exactly one of {"urls":[...]}, {"mangadex_list":"https://mangadex.org/list/{id}"} or this server's export ({"version":1,"bookmarks":[...]})`)
	case body.URLs != nil:
		return fromURLs(*body.URLs)
	case body.MangaDexList != nil:
		return fromMangaDexList(*body.MangaDexList)
	}
	return fromExport(body)
}

// countLists reads the "urls" and "bookmarks" lists of a JSON object
// element by element, keeping none, and returns the too-many error
// (ErrTooLarge) at the MaxItems+1st element of either; its keys match as
// encoding/json matches them to jsonBody's fields (case-folded), and a key
// given twice is counted each time. Anything else it stops at (a body that
// is not an object, is not JSON, ends early) is returned as it stands, for
// the decode that follows to name.
func countLists(r io.Reader) error {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return err
	}
	var skip skipValue
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if key, _ := tok.(string); !strings.EqualFold(key, "urls") && !strings.EqualFold(key, "bookmarks") {
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		if err := countList(dec); err != nil {
			return err
		}
	}
	return nil
}

// countList reads past the value of a "urls" or "bookmarks" key: a list
// element by element, up to MaxItems of them; an object entry by entry.
func countList(dec *json.Decoder) error {
	var skip skipValue
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('['):
		for n := 1; dec.More(); n++ {
			if n > MaxItems {
				return tooMany()
			}
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
	case json.Delim('{'):
		for dec.More() {
			if _, err := dec.Token(); err != nil {
				return err
			}
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
	default:
		return nil // a string, number, true, false or null: read whole
	}
	_, err = dec.Token() // the closing ] or }
	return err
}

// skipValue is a JSON value read past and not kept: encoding/json hands
// it the value's bytes without copying them.
type skipValue struct{}

// UnmarshalJSON keeps nothing.
func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// jsonProblem says why a JSON body does not decode, in jsonbody's
// sentence (the API's own).
func jsonProblem(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	return errorf(ErrUnreadable, "%s", jsonbody.Problem(err))
}

// fromExport makes a json import of this project's export.
func fromExport(body jsonBody) (*Parsed, error) {
	if body.Version == nil || *body.Version != ExportVersion {
		return nil, errorf(ErrUnreadable, "this export's \"version\" is not %d, the only one this server reads", ExportVersion)
	}
	if body.Bookmarks == nil {
		return nil, errorf(ErrUnreadable, `the export has no "bookmarks" list`)
	}
	p := &Parsed{Kind: KindJSON}
	for i, b := range *body.Bookmarks {
		label := b.URL
		if label == "" {
			label = fmt.Sprintf("bookmark %d", i+1)
		}
		it, reason := rowItem(label, b.URL, deref(b.ProgressNumber), b.ProgressReadAt)
		if reason == "" && b.NotifyMode != "" && b.NotifyMode != "each" && b.NotifyMode != "off" && b.NotifyMode != "pile" {
			reason = fmt.Sprintf("notify_mode %q is not each, off or pile", b.NotifyMode)
		}
		if reason == "" {
			reason = pileReason(b.ExportRow)
		}
		if reason == "" && b.State != "" {
			reason = stateReason(b.State)
		}
		it.NotifyMode, it.State = b.NotifyMode, b.State
		it.IDs, it.Title = idsIn(b.IDs), b.Title
		if b.NotifyMode == store.NotifyPile {
			it.NotifyPile, it.NotifyPileDays = derefInt(b.NotifyPile), derefInt(b.NotifyPileDays)
		}
		var err error
		if reason != "" {
			err = p.skip(label, reason)
		} else {
			err = p.add(it)
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// rowItem checks one row of an export or CSV: a URL, and a Progress number
// with its optional read time. A reason says why the row cannot be taken.
func rowItem(label, url, number string, readAt *time.Time) (Item, string) {
	url = strings.TrimSpace(url)
	if url == "" {
		return Item{}, "the row has no URL"
	}
	it := Item{Label: label, URL: url}
	if number = strings.TrimSpace(number); number != "" {
		n, ok := sites.ParseNumber(number)
		if !ok {
			return Item{}, fmt.Sprintf("progress %q is not a chapter number (a plain decimal such as 12 or 12.5)", number)
		}
		it.Number, it.ReadAt = n, readAt
	}
	return it, ""
}

// pileReason says why a row's pile thresholds cannot be taken ("" when
// they can, or are absent).
func pileReason(b ExportRow) string {
	switch {
	case b.NotifyPile != nil && (*b.NotifyPile < 1 || *b.NotifyPile > store.NotifyPileMax):
		return fmt.Sprintf("notify_pile %d is not a number of chapters from 1 to %d", *b.NotifyPile, store.NotifyPileMax)
	case b.NotifyPileDays != nil && (*b.NotifyPileDays < 1 || *b.NotifyPileDays > store.NotifyPileDaysMax):
		return fmt.Sprintf("notify_pile_days %d is not a number of days from 1 to %d", *b.NotifyPileDays, store.NotifyPileDaysMax)
	}
	return ""
}

func derefInt(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// stateReason says why a row's reading state cannot be taken ("" when it
// is one of the six).
func stateReason(state string) string {
	if store.ValidState(state) {
		return ""
	}
	return fmt.Sprintf("state %q is not one of %s", state, strings.Join(store.ReadingStates, ", "))
}
