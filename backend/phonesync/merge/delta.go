package merge

import (
	"bytes"
	"context"

	"mangabookmark/backend/store"
)

// delta is the answer to a device at cursor (syncyomi/syncyomi
// internal/sync/merge.go at 8e60caa7ba72e328e380bc4434eec8a61478d883, the
// same rules): every live category; every item other devices wrote since
// the cursor; every item whose stored copy won this merge; each manga
// among them, or whose chapter is among them, with all its chapters.
// changed is whether any of it is new to the device.
func (e *Engine) delta(ctx context.Context, tx *store.SyncV2Tx, reader, cursor int64, origin []byte, d *decision) ([]*Item, bool, error) {
	changed := d.changed
	want := map[Kind]map[string]*Item{}
	add := func(it *Item) {
		if want[it.Kind] == nil {
			want[it.Kind] = map[string]*Item{}
		}
		want[it.Kind][it.Key] = it
	}

	since, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.Since(ctx, cursor) })
	if err != nil {
		return nil, false, err
	}
	for _, it := range since {
		if it.Kind != KindCategory && !bytes.Equal(it.origin, origin) {
			add(it)
			changed = true
		}
		if it.Kind == KindCategory && !bytes.Equal(it.origin, origin) {
			changed = true
		}
	}
	cats, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.Kind(ctx, int16(KindCategory)) })
	if err != nil {
		return nil, false, err
	}
	for _, c := range cats {
		if !c.Deleted {
			add(c)
		}
	}
	for kind, keys := range d.returns {
		if kind == KindCategory {
			continue // every live category is in already
		}
		hashes := make([][]byte, len(keys))
		for i, k := range keys {
			hashes[i] = e.crypt.keyHash(kind, k)
		}
		got, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.ByKeys(ctx, int16(kind), hashes) })
		if err != nil {
			return nil, false, err
		}
		for _, it := range got {
			add(it)
		}
	}

	var parents [][]byte
	for _, ch := range want[KindChapter] {
		if want[KindManga][ch.Parent] == nil {
			parents = append(parents, e.crypt.keyHash(KindManga, ch.Parent))
		}
	}
	if len(parents) > 0 {
		got, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.ByKeys(ctx, int16(KindManga), parents) })
		if err != nil {
			return nil, false, err
		}
		for _, m := range got {
			add(m)
		}
	}
	if len(want[KindManga]) > 0 {
		keys := make([][]byte, 0, len(want[KindManga]))
		for k := range want[KindManga] {
			keys = append(keys, e.crypt.keyHash(KindManga, k))
		}
		got, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.Children(ctx, keys) })
		if err != nil {
			return nil, false, err
		}
		for _, ch := range got {
			add(ch)
		}
	}

	var out []*Item
	for _, k := range []Kind{KindCategory, KindManga, KindChapter, KindSource, KindPref, KindSourcePref, KindExtStore, KindSavedSearch, KindExtra} {
		for _, it := range since {
			if it.Kind == k && want[k][it.Key] == it {
				out = append(out, it)
				delete(want[k], it.Key)
			}
		}
		out = append(out, sortedItems(want[k])...)
	}
	return out, changed, nil
}
