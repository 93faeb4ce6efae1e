package merge

import (
	"bytes"
	"strconv"

	"mangabookmark/backend/store"
)

// state is what a merge knows of the stored library: the numbers of the
// items the upload names, and every category opened (for the name
// fallback and tombstones).
type state struct {
	meta map[int16]map[string]store.SyncItem // by kind, string(key hash)
	cats map[string]*Item                    // by key
}

// liveNamed returns the live stored category named name (the first by
// key when several are), or nil. Unlike the SyncYomi server, a tombstone
// is not matched by name: a category made again under a deleted one's
// name is a new category, not a deleted one (ADR 0029).
func (st state) liveNamed(name string) *Item {
	var found *Item
	for _, c := range st.cats {
		if c.Name == name && !c.Deleted && (found == nil || c.Key < found.Key) {
			found = c
		}
	}
	return found
}

// decision is what a merge does: items to write (by kind and key: a
// later decision on the same item replaces an earlier one), items whose
// stored copy the device must get back, and whether the answer brings the
// device anything new.
type decision struct {
	writes  map[Kind]map[string]*Item
	order   []*Item
	returns map[Kind][]string
	changed bool
	fresh   bool // a manga or chapter the library did not hold is written
}

func (d *decision) write(it *Item) {
	if d.writes[it.Kind] == nil {
		d.writes[it.Kind] = map[string]*Item{}
	}
	if _, again := d.writes[it.Kind][it.Key]; !again {
		d.order = append(d.order, it)
	}
	d.writes[it.Kind][it.Key] = it
}

func (d *decision) items() []*Item {
	out := make([]*Item, 0, len(d.order))
	for _, it := range d.order {
		out = append(out, d.writes[it.Kind][it.Key])
	}
	return out
}

func (d *decision) giveBack(k Kind, key string) {
	d.returns[k] = append(d.returns[k], key)
	d.changed = true
}

// decide applies the merge rules of the SyncYomi server
// (internal/merge/merge.go at e00f61f2aff427f7cf3d7ac154f4a9032e4d2271):
//   - categories first: tombstones, then the upload's categories (a new
//     one whose name is a stored category's is mapped onto it, and manga
//     references follow the mapping);
//   - manga, chapters, categories: a higher version writes, an equal one
//     keeps the server's copy, a lower one gives the server's copy back;
//     a tombstone comes back only with a higher version;
//   - settings: the client's copy wins when it differs;
//   - nothing absent is deleted.
func (e *Engine) decide(st state, items []*Item, deletedUIDs []int64) *decision {
	d := &decision{writes: map[Kind]map[string]*Item{}, returns: map[Kind][]string{}}
	for _, uid := range deletedUIDs {
		key := "uid:" + strconv.FormatInt(uid, 10)
		if cur := st.cats[key]; cur != nil && !cur.Deleted {
			tomb := *cur
			tomb.Deleted = true
			d.write(&tomb)
			st.cats[key] = &tomb
		}
	}

	remap := map[string]string{}
	for _, it := range items {
		if it.Kind != KindCategory {
			continue
		}
		cur := st.cats[it.Key]
		if cur == nil && it.Name != "" {
			if c := st.liveNamed(it.Name); c != nil {
				cur = c
				remap[it.Key] = c.Key
				it.Key = c.Key
			}
		}
		switch {
		case cur == nil:
			it.fresh = true
			d.write(it)
			st.cats[it.Key] = it
		case it.Version > cur.Version:
			d.write(it)
			st.cats[it.Key] = it
		case cur.Deleted:
			d.changed = true // the device still has it; the answer's list drops it
		case it.Version < cur.Version:
			d.giveBack(KindCategory, cur.Key)
		}
	}

	for _, it := range items {
		if it.Kind == KindCategory {
			continue
		}
		for i, ref := range it.Refs {
			if to, ok := remap[ref]; ok {
				it.Refs[i] = to
			}
		}
		cur, known := st.meta[int16(it.Kind)][string(e.keyHash(it))]
		switch {
		case !known:
			it.fresh = true
			d.write(it)
			d.fresh = d.fresh || it.Kind == KindManga || it.Kind == KindChapter
		case !it.Kind.versioned():
			if !bytes.Equal(cur.Digest, e.crypt.digest(it.envelope())) {
				d.write(it)
			}
		case it.Version > cur.Version:
			d.write(it)
		case it.Version < cur.Version:
			d.giveBack(it.Kind, it.Key)
		}
	}
	return d
}
