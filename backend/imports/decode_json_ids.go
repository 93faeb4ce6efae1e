package imports

import (
	"encoding/json"
	"slices"

	"mangabookmark/backend/sites"
)

// maxIDEntries bounds the entries of one bookmark's "ids" looked at: a
// Series has at most one id of each kind, so more are a forged file.
const maxIDEntries = 64

// idsIn reads an export bookmark's "ids", [{"kind","value","source"}] as
// the API's Series shape writes them, into external ids: each value
// normalised (sites.NormalizeID), each distinct id once. Several of
// one kind are all read: the plan keeps the first and lists the rest
// with the import's problems (Plan.keepIDs), so the Reader sees them. The
// source is not read (an imported id is the import's). An entry that is
// not such an object, an unknown kind or a refused value is dropped, and
// ids that are not a list give none: never an error, so a damaged id
// costs only itself.
func idsIn(raw json.RawMessage) []sites.ExternalID {
	var list []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var ids []sites.ExternalID
	for i, entry := range list {
		if i == maxIDEntries {
			break
		}
		var e struct {
			Kind  json.RawMessage `json:"kind"`
			Value json.RawMessage `json:"value"`
		}
		var kind, value string
		if json.Unmarshal(entry, &e) != nil || json.Unmarshal(e.Kind, &kind) != nil || json.Unmarshal(e.Value, &value) != nil {
			continue
		}
		if id, ok := sites.NormalizeID(kind, value); ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}
