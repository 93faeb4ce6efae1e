package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A Reader's SyncYomi v2 library (sync_v2_libraries, sync_v2_items,
// migration 0021): items the merge in backend/phonesync/merge reads and
// writes. The store sees keyed hashes and sealed bytes only; what an item
// is, the merge knows. docs/adr/0029-phone-sync-v2-merges.md.

// SyncItem is one stored item of a Reader's v2 library.
type SyncItem struct {
	Kind     int16
	Key      []byte // keyed hash of the item's key (16 bytes)
	Parent   []byte // a chapter's manga's Key; nil for other kinds
	Version  int64
	Modified int64 // the client's lastModifiedAt, seconds
	Deleted  bool  // a category tombstone
	Digest   []byte
	Origin   []byte // keyed hash of the device that wrote it
	Seq      int64
	Sealed   []byte // nil when read by SyncV2Tx.Lookup
	// Fresh says the library holds no item of this kind and key (the
	// caller looked it up under the same lock): Write copies it straight
	// into the table instead of through the upsert.
	Fresh bool
}

// SyncV2Tx is one merge or snapshot of one Reader's v2 library, inside a
// transaction that holds the library's row lock: merges of one Reader run
// one at a time, whichever process serves them.
type SyncV2Tx struct {
	tx     pgx.Tx
	reader int64
	seq    int64
}

// SyncV2 runs fn on readerID's v2 library (made empty if it is new) under
// its row lock, and commits what fn wrote when fn returns nil.
func (s *Store) SyncV2(ctx context.Context, readerID int64, fn func(*SyncV2Tx) error) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sync_v2_libraries (reader_id) VALUES ($1)
			ON CONFLICT (reader_id) DO NOTHING`, readerID); err != nil {
			return err
		}
		t := &SyncV2Tx{tx: tx, reader: readerID}
		if err := tx.QueryRow(ctx, `SELECT seq FROM sync_v2_libraries WHERE reader_id = $1 FOR UPDATE`,
			readerID).Scan(&t.seq); err != nil {
			return err
		}
		return fn(t)
	})
	if err != nil {
		return fmt.Errorf("store: sync v2: %w", err)
	}
	return nil
}

// Seq is the library's cursor: the seq of its latest write, 0 when none.
func (t *SyncV2Tx) Seq() int64 { return t.seq }

// lookupAllAbove is the number of keys past which Lookup reads every
// item's numbers rather than an ANY list (a full library).
const lookupAllAbove = 2000

// Lookup returns the stored numbers (no Sealed) of the items among keys,
// by kind and then string(Key).
func (t *SyncV2Tx) Lookup(ctx context.Context, keys [][]byte) (map[int16]map[string]SyncItem, error) {
	const cols = `kind, key_hash, parent_hash, version, modified_at, deleted, digest, origin, seq`
	var rows pgx.Rows
	var err error
	if len(keys) > lookupAllAbove {
		rows, err = t.tx.Query(ctx, `SELECT `+cols+` FROM sync_v2_items WHERE reader_id = $1`, t.reader)
	} else {
		rows, err = t.tx.Query(ctx, `SELECT `+cols+` FROM sync_v2_items
			WHERE reader_id = $1 AND key_hash = ANY($2)`, t.reader, keys)
	}
	if err != nil {
		return nil, fmt.Errorf("store: sync v2 lookup: %w", err)
	}
	defer rows.Close()
	out := map[int16]map[string]SyncItem{}
	for rows.Next() {
		var it SyncItem
		if err := rows.Scan(&it.Kind, &it.Key, &it.Parent, &it.Version, &it.Modified, &it.Deleted,
			&it.Digest, &it.Origin, &it.Seq); err != nil {
			return nil, fmt.Errorf("store: sync v2 lookup: %w", err)
		}
		if out[it.Kind] == nil {
			out[it.Kind] = map[string]SyncItem{}
		}
		out[it.Kind][string(it.Key)] = it
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: sync v2 lookup: %w", err)
	}
	return out, nil
}

const syncItemCols = `kind, key_hash, parent_hash, version, modified_at, deleted, digest, origin, seq, sealed`

func (t *SyncV2Tx) query(ctx context.Context, what, where string, args ...any) ([]SyncItem, error) {
	rows, err := t.tx.Query(ctx, `SELECT `+syncItemCols+` FROM sync_v2_items WHERE reader_id = $1 AND `+
		where+` ORDER BY kind, seq, key_hash`, append([]any{t.reader}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: sync v2 %s: %w", what, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (SyncItem, error) {
		var it SyncItem
		err := r.Scan(&it.Kind, &it.Key, &it.Parent, &it.Version, &it.Modified, &it.Deleted,
			&it.Digest, &it.Origin, &it.Seq, &it.Sealed)
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: sync v2 %s: %w", what, err)
	}
	return out, nil
}

// Kind returns every item of one kind, tombstones included.
func (t *SyncV2Tx) Kind(ctx context.Context, kind int16) ([]SyncItem, error) {
	return t.query(ctx, "kind", `kind = $2`, kind)
}

// All returns every item.
func (t *SyncV2Tx) All(ctx context.Context) ([]SyncItem, error) {
	return t.query(ctx, "all", `true`)
}

// AllBut returns every item but those written under seq (a merge that
// holds what it wrote answers with those itself).
func (t *SyncV2Tx) AllBut(ctx context.Context, seq int64) ([]SyncItem, error) {
	return t.query(ctx, "all but", `seq <> $2`, seq)
}

// Since returns the items written after seq cursor.
func (t *SyncV2Tx) Since(ctx context.Context, cursor int64) ([]SyncItem, error) {
	return t.query(ctx, "since", `seq > $2`, cursor)
}

// ByKeys returns the items of kind whose Key is among keys.
func (t *SyncV2Tx) ByKeys(ctx context.Context, kind int16, keys [][]byte) ([]SyncItem, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	return t.query(ctx, "by keys", `kind = $2 AND key_hash = ANY($3)`, kind, keys)
}

// Children returns the items whose Parent is among parents (a manga's
// chapters).
func (t *SyncV2Tx) Children(ctx context.Context, parents [][]byte) ([]SyncItem, error) {
	if len(parents) == 0 {
		return nil, nil
	}
	return t.query(ctx, "children", `parent_hash = ANY($2)`, parents)
}

// Write stores items (inserted, or replacing the stored copy of the same
// kind and key) under the library's next seq, and returns the new seq.
// Writing nothing leaves the seq where it was. The library's stored_bytes
// follows (what the written items seal, less what they replace).
func (t *SyncV2Tx) Write(ctx context.Context, items []SyncItem) (int64, error) {
	if len(items) == 0 {
		return t.seq, nil
	}
	next := t.seq + 1
	var fresh, replace []SyncItem
	var added int64
	for _, it := range items {
		added += int64(len(it.Sealed))
		if it.Fresh {
			fresh = append(fresh, it)
		} else {
			replace = append(replace, it)
		}
	}
	// Items new to the library are copied straight in (a first full
	// library is tens of thousands of rows, which COPY carries an order
	// of magnitude faster than INSERT parameters); the others go by COPY
	// into a scratch table, then one upsert.
	if len(fresh) > 0 {
		if _, err := t.tx.CopyFrom(ctx, pgx.Identifier{"sync_v2_items"},
			[]string{"reader_id", "kind", "key_hash", "parent_hash", "version", "modified_at", "deleted", "digest", "origin", "seq", "sealed"},
			pgx.CopyFromSlice(len(fresh), func(i int) ([]any, error) {
				it := fresh[i]
				return []any{t.reader, it.Kind, it.Key, it.Parent, it.Version, it.Modified, it.Deleted, it.Digest, it.Origin, next, it.Sealed}, nil
			})); err != nil {
			return 0, fmt.Errorf("store: sync v2 write: %w", err)
		}
	}
	var removed int64
	if len(replace) > 0 {
		var err error
		if removed, err = t.upsert(ctx, replace, next); err != nil {
			return 0, fmt.Errorf("store: sync v2 write: %w", err)
		}
	}
	if _, err := t.tx.Exec(ctx, `UPDATE sync_v2_libraries SET seq = $2, stored_bytes = greatest(stored_bytes + $3, 0),
			updated_at = now() WHERE reader_id = $1`, t.reader, next, added-removed); err != nil {
		return 0, fmt.Errorf("store: sync v2 write: %w", err)
	}
	t.seq = next
	return next, nil
}

// upsert writes items that may be stored already under seq next, and
// returns the sealed bytes of the stored copies they replace.
func (t *SyncV2Tx) upsert(ctx context.Context, items []SyncItem, next int64) (int64, error) {
	if _, err := t.tx.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS sync_v2_in (
			kind smallint, key_hash bytea, parent_hash bytea, version bigint, modified_at bigint,
			deleted boolean, digest bytea, origin bytea, sealed bytea) ON COMMIT DELETE ROWS`); err != nil {
		return 0, err
	}
	if _, err := t.tx.Exec(ctx, `TRUNCATE sync_v2_in`); err != nil {
		return 0, err
	}
	if _, err := t.tx.CopyFrom(ctx, pgx.Identifier{"sync_v2_in"},
		[]string{"kind", "key_hash", "parent_hash", "version", "modified_at", "deleted", "digest", "origin", "sealed"},
		pgx.CopyFromSlice(len(items), func(i int) ([]any, error) {
			it := items[i]
			return []any{it.Kind, it.Key, it.Parent, it.Version, it.Modified, it.Deleted, it.Digest, it.Origin, it.Sealed}, nil
		})); err != nil {
		return 0, err
	}
	// What the stored copies seal, found by key through the primary key
	// (the scratch table has no statistics to plan a join with).
	kinds, keys := make([]int16, len(items)), make([][]byte, len(items))
	for i, it := range items {
		kinds[i], keys[i] = it.Kind, it.Key
	}
	var removed int64
	if err := t.tx.QueryRow(ctx, `SELECT coalesce(sum(octet_length(i.sealed)), 0)
		FROM unnest($2::smallint[], $3::bytea[]) n (kind, key_hash)
		JOIN sync_v2_items i ON i.reader_id = $1 AND i.kind = n.kind AND i.key_hash = n.key_hash`,
		t.reader, kinds, keys).Scan(&removed); err != nil {
		return 0, err
	}
	_, err := t.tx.Exec(ctx, `INSERT INTO sync_v2_items AS i
			(reader_id, kind, key_hash, parent_hash, version, modified_at, deleted, digest, origin, seq, sealed)
		SELECT $1, kind, key_hash, parent_hash, version, modified_at, deleted, digest, origin, $2, sealed FROM sync_v2_in
		ON CONFLICT (reader_id, kind, key_hash) DO UPDATE SET
			parent_hash = excluded.parent_hash, version = excluded.version,
			modified_at = excluded.modified_at, deleted = excluded.deleted, digest = excluded.digest,
			origin = excluded.origin, seq = excluded.seq, sealed = excluded.sealed`, t.reader, next)
	return removed, err
}

// One returns one stored item (ok false when there is none): enough to
// learn whether the library still opens under the current TOKEN_KEY.
func (t *SyncV2Tx) One(ctx context.Context) (SyncItem, bool, error) {
	var it SyncItem
	err := t.tx.QueryRow(ctx, `SELECT `+syncItemCols+` FROM sync_v2_items WHERE reader_id = $1 LIMIT 1`, t.reader).
		Scan(&it.Kind, &it.Key, &it.Parent, &it.Version, &it.Modified, &it.Deleted, &it.Digest, &it.Origin, &it.Seq, &it.Sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return SyncItem{}, false, nil
	}
	if err != nil {
		return SyncItem{}, false, fmt.Errorf("store: sync v2 one: %w", err)
	}
	return it, true, nil
}

// Clear deletes every item of the library; its seq stays, so no cursor a
// phone holds is taken for a later state.
func (t *SyncV2Tx) Clear(ctx context.Context) error {
	if _, err := t.tx.Exec(ctx, `DELETE FROM sync_v2_items WHERE reader_id = $1`, t.reader); err != nil {
		return fmt.Errorf("store: sync v2 clear: %w", err)
	}
	if _, err := t.tx.Exec(ctx, `UPDATE sync_v2_libraries SET stored_bytes = 0 WHERE reader_id = $1`, t.reader); err != nil {
		return fmt.Errorf("store: sync v2 clear: %w", err)
	}
	return nil
}

// ReadsChanged reports whether reads made elsewhere may have moved since
// the last ReadsChecked: never checked, or a Progress of the Reader set by
// anything but the phone sync, or an offset of theirs, changed since.
func (t *SyncV2Tx) ReadsChanged(ctx context.Context) (bool, error) {
	var changed bool
	err := t.tx.QueryRow(ctx, `SELECT l.reads_checked_at IS NULL
			OR EXISTS (SELECT 1 FROM progress p WHERE p.reader_id = l.reader_id AND p.source <> 'sync'
				AND p.updated_at > l.reads_checked_at)
			OR EXISTS (SELECT 1 FROM work_reader_offsets o WHERE o.reader_id = l.reader_id
				AND o.set_at > l.reads_checked_at)
		FROM sync_v2_libraries l WHERE l.reader_id = $1`, t.reader).Scan(&changed)
	if err != nil {
		return false, fmt.Errorf("store: sync v2 reads changed: %w", err)
	}
	return changed, nil
}

// readsCheckSlack is how far before now a check counts as made: a read
// whose transaction began before the check and committed after it is
// still seen by the next one.
const readsCheckSlack = "30 seconds"

// ReadsChecked records that reads made elsewhere were checked now.
func (t *SyncV2Tx) ReadsChecked(ctx context.Context) error {
	if _, err := t.tx.Exec(ctx, `UPDATE sync_v2_libraries SET reads_checked_at = now() - interval '`+readsCheckSlack+`'
		WHERE reader_id = $1`, t.reader); err != nil {
		return fmt.Errorf("store: sync v2 reads checked: %w", err)
	}
	return nil
}
