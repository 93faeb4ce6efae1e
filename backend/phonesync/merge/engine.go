package merge

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
)

// ErrNoData is Snapshot's answer when the Reader never merged anything.
var ErrNoData = errors.New("merge: nothing stored")

// Engine merges uploads into Readers' v2 libraries. Safe for concurrent
// use; merges of one Reader run one at a time (store.SyncV2's row lock).
type Engine struct {
	store *store.Store
	crypt *Crypt
	msgs  bp.Messages
	reads ReadsOut
}

// New returns an Engine over st, sealing with c. With reads not nil,
// each merge first marks read what reads made elsewhere passed (see
// markReads); nil marks nothing.
func New(st *store.Store, c *Crypt, reads ReadsOut) (*Engine, error) {
	msgs, err := bp.Load()
	if err != nil {
		return nil, err
	}
	return &Engine{store: st, crypt: c, msgs: msgs, reads: reads}, nil
}

// Messages are the backup's message descriptors the Engine uses.
func (e *Engine) Messages() bp.Messages { return e.msgs }

// Request is one POST /api/sync/v2/merge, its headers checked.
type Request struct {
	Reader            int64
	Device            string // X-Device-ID, 1 to 128 bytes
	Cursor            int64  // X-Sync-Cursor, >= 0
	Full              bool   // X-Sync-Full
	Backup            protoreflect.Message
	DeletedCategories []int64 // X-Sync-Deleted-Categories
	// RawOnly: the caller sends the answer's bytes (Answer.Raw) and
	// needs no decoded Answer.Backup.
	RawOnly bool
}

// Answer is what a merge or a snapshot answers.
type Answer struct {
	Backup        *dynamicpb.Message // nil when the Request was RawOnly
	Raw           []byte             // the Backup's protobuf bytes (RenderBytes)
	Cursor        int64
	Changed       bool // X-Sync-Changed
	FullRequested bool // X-Sync-Full-Requested
	Written       int  // items of the upload written
	Marked        int  // chapters marked read by reads made elsewhere
}

// Merge merges req's upload into the Reader's library and returns what
// the device lacks: the whole library when the cursor is 0 or the upload
// is full, else all live categories, everything other devices wrote
// since the cursor and every item whose stored copy won, each changed
// chapter as its manga with all its chapters. A cursor above the
// library's seq (a restored database) counts as 0 and asks the device for
// its full library next time.
func (e *Engine) Merge(ctx context.Context, req Request) (Answer, error) {
	items, err := Split(req.Backup)
	if err != nil {
		return Answer{}, err
	}
	var ans Answer
	err = e.store.SyncV2(ctx, req.Reader, func(tx *store.SyncV2Tx) error {
		cursor := req.Cursor
		if cursor > tx.Seq() {
			cursor, ans.FullRequested = 0, true
		}
		lost, err := e.sealedUnderAnotherKey(ctx, tx, req.Reader)
		if err != nil {
			return err
		}
		if lost {
			// TOKEN_KEY changed: what is stored cannot be opened again. It
			// goes, and the phone is asked for its whole library.
			if err := tx.Clear(ctx); err != nil {
				return err
			}
			cursor, ans.FullRequested = 0, true
		}
		full := req.Full || cursor == 0

		st, err := e.load(ctx, tx, req.Reader, items)
		if err != nil {
			return err
		}
		d := e.decide(st, items, req.DeletedCategories)
		origin := e.crypt.deviceHash(req.Device)
		rows, err := e.seal(req.Reader, origin, d.items())
		if err != nil {
			return err
		}
		wrote, err := tx.Write(ctx, rows)
		if err != nil {
			return err
		}
		ans.Written = len(rows)
		written := d.items()
		library := func() ([]*Item, error) { return e.fullAnswer(ctx, tx, req.Reader, written, wrote, len(rows) > 0) }
		if ans.Marked, err = e.markReads(ctx, tx, req.Reader, d.fresh, library); err != nil {
			return err
		}
		ans.Cursor = tx.Seq()

		var out []*Item
		if full {
			out, err = library()
			ans.Changed = true
		} else {
			out, ans.Changed, err = e.delta(ctx, tx, req.Reader, cursor, origin, d)
		}
		if err != nil {
			return err
		}
		ans.Raw, err = RenderBytes(e.msgs, out)
		return err
	})
	if err != nil {
		return Answer{}, fmt.Errorf("merge: %w", err)
	}
	if !req.RawOnly {
		if ans.Backup, err = bp.Unmarshal(e.msgs.Backup, ans.Raw); err != nil {
			return Answer{}, fmt.Errorf("merge: %w", err)
		}
	}
	return ans, nil
}

// Snapshot returns the Reader's whole library (SnapshotRaw), decoded.
func (e *Engine) Snapshot(ctx context.Context, reader int64) (Answer, error) {
	ans, err := e.SnapshotRaw(ctx, reader)
	if err != nil {
		return Answer{}, err
	}
	if ans.Backup, err = bp.Unmarshal(e.msgs.Backup, ans.Raw); err != nil {
		return Answer{}, fmt.Errorf("merge: snapshot: %w", err)
	}
	return ans, nil
}

// SnapshotRaw returns the Reader's whole library as its bytes
// (GET /api/sync/v2/snapshot answers Answer.Raw; Answer.Backup is nil),
// or ErrNoData when nothing was ever merged.
func (e *Engine) SnapshotRaw(ctx context.Context, reader int64) (Answer, error) {
	var ans Answer
	err := e.store.SyncV2(ctx, reader, func(tx *store.SyncV2Tx) error {
		if tx.Seq() == 0 {
			return ErrNoData
		}
		all, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.All(ctx) })
		if err != nil {
			return err
		}
		ans.Cursor, ans.Changed = tx.Seq(), true
		ans.Raw, err = RenderBytes(e.msgs, all)
		return err
	})
	if errors.Is(err, ErrNoData) {
		return Answer{}, ErrNoData
	}
	if err != nil {
		return Answer{}, fmt.Errorf("merge: snapshot: %w", err)
	}
	return ans, nil
}

// sealedUnderAnotherKey reports whether the library was sealed under
// another TOKEN_KEY (a stored item does not open with the key check
// failing); damage is an error, never a reason to drop the library.
func (e *Engine) sealedUnderAnotherKey(ctx context.Context, tx *store.SyncV2Tx, reader int64) (bool, error) {
	one, ok, err := tx.One(ctx)
	if err != nil || !ok {
		return false, err
	}
	_, err = e.crypt.open(reader, Kind(one.Kind), one.Key, one.Sealed)
	if errors.Is(err, trackers.ErrSealKeyChanged) {
		return true, nil
	}
	return false, nil
}

// load reads what decide needs: the numbers of the upload's items and
// every category, opened.
func (e *Engine) load(ctx context.Context, tx *store.SyncV2Tx, reader int64, items []*Item) (state, error) {
	keys := make([][]byte, 0, len(items))
	for _, it := range items {
		if it.Kind != KindCategory {
			keys = append(keys, e.keyHash(it))
		}
	}
	meta, err := tx.Lookup(ctx, keys)
	if err != nil {
		return state{}, err
	}
	cats, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.Kind(ctx, int16(KindCategory)) })
	if err != nil {
		return state{}, err
	}
	st := state{meta: meta, cats: make(map[string]*Item, len(cats))}
	for _, c := range cats {
		st.cats[c.Key] = c
	}
	return st, nil
}

// seal turns items into rows written by the device origin.
func (e *Engine) seal(reader int64, origin []byte, items []*Item) ([]store.SyncItem, error) {
	rows := make([]store.SyncItem, 0, len(items))
	parents := map[string][]byte{}
	for _, it := range items {
		key := e.keyHash(it)
		env := it.envelope()
		sealed, err := e.crypt.seal(reader, it.Kind, key, env)
		if err != nil {
			return nil, err
		}
		row := store.SyncItem{Kind: int16(it.Kind), Key: key, Version: it.Version, Modified: it.Modified,
			Deleted: it.Deleted, Digest: e.crypt.digest(env), Origin: origin, Sealed: sealed, Fresh: it.fresh}
		if it.Kind == KindChapter {
			if row.Parent = parents[it.Parent]; row.Parent == nil {
				row.Parent = e.crypt.keyHash(KindManga, it.Parent)
				parents[it.Parent] = row.Parent
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// opened reads rows with read and opens them.
func (e *Engine) opened(_ context.Context, _ *store.SyncV2Tx, reader int64, read func() ([]store.SyncItem, error)) ([]*Item, error) {
	rows, err := read()
	if err != nil {
		return nil, err
	}
	out := make([]*Item, 0, len(rows))
	for _, r := range rows {
		env, err := e.crypt.open(reader, Kind(r.Kind), r.Key, r.Sealed)
		if err != nil {
			return nil, fmt.Errorf("open a stored item: %w", err)
		}
		it := &Item{Kind: Kind(r.Kind), Version: r.Version, Modified: r.Modified, Deleted: r.Deleted,
			origin: r.Origin, seq: r.Seq}
		if err := it.openEnvelope(env); err != nil {
			return nil, err
		}
		it.hash, it.hashedOf = r.Key, it.Key
		out = append(out, it)
	}
	return out, nil
}

// keyHash is the stored key of it (Crypt.keyHash of its kind and key),
// made once per key.
func (e *Engine) keyHash(it *Item) []byte {
	if it.hash == nil || it.hashedOf != it.Key {
		it.hash, it.hashedOf = e.crypt.keyHash(it.Kind, it.Key), it.Key
	}
	return it.hash
}

// fullAnswer is the whole library after a merge: every stored item the
// merge did not write, then the items it wrote under seq wrote (held:
// they are not read back and opened again). Render orders what the order
// decides (categories, chapters). With written false the merge wrote
// nothing and all is read.
func (e *Engine) fullAnswer(ctx context.Context, tx *store.SyncV2Tx, reader int64, items []*Item, wrote int64, written bool) ([]*Item, error) {
	if !written {
		return e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.All(ctx) })
	}
	rest, err := e.opened(ctx, tx, reader, func() ([]store.SyncItem, error) { return tx.AllBut(ctx, wrote) })
	if err != nil {
		return nil, err
	}
	type id struct {
		kind Kind
		key  string
	}
	later := make(map[id]bool, len(rest))
	for _, it := range rest {
		later[id{it.Kind, it.Key}] = true // rewritten since (reads out)
	}
	out := rest
	for _, it := range items {
		if !later[id{it.Kind, it.Key}] {
			it.seq = wrote
			out = append(out, it)
		}
	}
	return out, nil
}
