package merge

import (
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Kind is what an item is. The numbers are stored (sync_v2_items.kind).
type Kind int16

// The kinds of item.
const (
	KindManga       Kind = 1
	KindChapter     Kind = 2
	KindCategory    Kind = 3
	KindSource      Kind = 4 // BackupSource
	KindPref        Kind = 5 // BackupPreference
	KindSourcePref  Kind = 6 // one BackupPreference of a BackupSourcePreferences
	KindExtStore    Kind = 7 // BackupExtensionStore
	KindSavedSearch Kind = 8 // BackupSavedSearch (TachiyomiSY)
	KindExtra       Kind = 9 // Backup's unknown fields, as they came
)

// versioned reports whether the client's version decides for k; the
// other kinds are settings, where the client's copy wins.
func (k Kind) versioned() bool {
	return k == KindManga || k == KindChapter || k == KindCategory
}

// Item is one item of a library, opened.
type Item struct {
	Kind     Kind
	Key      string
	Parent   string   // a chapter's manga key; a source preference's sourceKey
	Refs     []string // a manga's category keys
	Name     string   // a category's name
	Version  int64
	Modified int64 // lastModifiedAt, seconds
	Deleted  bool  // a category tombstone
	Payload  []byte

	origin []byte // the stored item's device hash (read back only)
	seq    int64  // the stored item's seq (read back only)

	hash     []byte // keyed hash of Kind and hashedOf (Engine.keyHash)
	hashedOf string // the Key hash was made of
	fresh    bool   // decide found no stored item of this kind and key
}

// Envelope field numbers: what is sealed for one item.
const (
	envKey     = 1
	envParent  = 2
	envRef     = 3
	envName    = 4
	envPayload = 5
)

// envelope encodes what of it is sealed.
func (it *Item) envelope() []byte {
	var b []byte
	b = protowire.AppendTag(b, envKey, protowire.BytesType)
	b = protowire.AppendString(b, it.Key)
	if it.Parent != "" {
		b = protowire.AppendTag(b, envParent, protowire.BytesType)
		b = protowire.AppendString(b, it.Parent)
	}
	for _, r := range it.Refs {
		b = protowire.AppendTag(b, envRef, protowire.BytesType)
		b = protowire.AppendString(b, r)
	}
	if it.Name != "" {
		b = protowire.AppendTag(b, envName, protowire.BytesType)
		b = protowire.AppendString(b, it.Name)
	}
	b = protowire.AppendTag(b, envPayload, protowire.BytesType)
	return protowire.AppendBytes(b, it.Payload)
}

var errEnvelope = errors.New("merge: a stored item does not decode")

// openEnvelope fills it's sealed parts from b.
func (it *Item) openEnvelope(b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.BytesType {
			return errEnvelope
		}
		b = b[n:]
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return errEnvelope
		}
		b = b[n:]
		switch num {
		case envKey:
			it.Key = string(v)
		case envParent:
			it.Parent = string(v)
		case envRef:
			it.Refs = append(it.Refs, string(v))
		case envName:
			it.Name = string(v)
		case envPayload:
			it.Payload = append([]byte(nil), v...)
		default:
			return fmt.Errorf("%w: field %d", errEnvelope, num)
		}
	}
	return nil
}

// sortedItems returns m's items by key.
func sortedItems(m map[string]*Item) []*Item {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*Item, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
