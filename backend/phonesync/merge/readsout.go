package merge

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/store"
)

// ReadsOut marks, in a whole library, the chapters the Reader's Progress
// passed through reads made elsewhere (phonesync.Service.ReadsOut: read
// true, version one above, lastModifiedAt now, nothing else changed) and
// returns the library unchanged when there are none.
type ReadsOut interface {
	ReadsOut(ctx context.Context, readerID int64, backup []byte) ([]byte, error)
}

// MarkerDevice is the device id the server's own writes are stored
// under: chapters marked read by reads made elsewhere. No phone has it
// (its hash is kept apart from any X-Device-ID by a prefix no header
// carries).
const MarkerDevice = "\x00mangabookmark reads made elsewhere"

// markReads writes, as the server's own items, each stored chapter that
// reads made elsewhere mark read; every device then gets it as it gets
// another device's write (a delta's "written since your cursor by
// another device"), and once stored read it is not marked again. It
// reads the whole library, so it runs only when something may have
// changed since the last time: a Progress or offset of the Reader
// (ReadsChanged), or a manga or chapter new to the library (fresh).
// library gives the whole library (Engine.fullAnswer: what the merge
// wrote is held, not read back). It returns the number of chapters
// marked.
func (e *Engine) markReads(ctx context.Context, tx *store.SyncV2Tx, reader int64, fresh bool, library func() ([]*Item, error)) (int, error) {
	if e.reads == nil {
		return 0, nil
	}
	changed, err := tx.ReadsChanged(ctx)
	if err != nil || (!changed && !fresh) {
		return 0, err
	}
	if err := tx.ReadsChecked(ctx); err != nil {
		return 0, err
	}
	all, err := library()
	if err != nil {
		return 0, err
	}
	var items []*Item
	for _, it := range all {
		if it.Kind == KindManga || it.Kind == KindChapter || it.Kind == KindSource {
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return 0, nil
	}
	before, err := RenderBytes(e.msgs, items)
	if err != nil {
		return 0, err
	}
	after, err := e.reads.ReadsOut(ctx, reader, before)
	if err != nil {
		return 0, fmt.Errorf("reads out: %w", err)
	}
	if string(after) == string(before) {
		return 0, nil
	}
	marked, err := bp.Unmarshal(e.msgs.Backup, after)
	if err != nil {
		return 0, fmt.Errorf("reads out: %w", err)
	}
	stored := map[string]*Item{}
	for _, it := range items {
		if it.Kind == KindChapter {
			stored[it.Key] = it
		}
	}
	var writes []*Item
	for _, m := range bp.List(marked, "backup_manga") {
		mk := MangaKey(bp.Int(m, "source"), bp.String(m, "url"))
		for _, ch := range bp.List(m, "chapters") {
			key := ChapterKey(mk, bp.String(ch, "url"))
			old := stored[key]
			if old == nil || bp.Int(ch, "version") <= old.Version || !bp.Bool(ch, "read", false) {
				continue
			}
			oldMsg, err := bp.Unmarshal(e.msgs.Chapter, old.Payload)
			if err != nil || bp.Bool(oldMsg, "read", false) || proto.Equal(oldMsg, ch.Interface()) {
				continue
			}
			p, err := bp.Marshal(ch.Interface())
			if err != nil {
				return 0, err
			}
			writes = append(writes, &Item{Kind: KindChapter, Key: key, Parent: mk,
				Version: bp.Int(ch, "version"), Modified: bp.Int(ch, "last_modified_at"), Payload: p})
		}
	}
	rows, err := e.seal(reader, e.crypt.deviceHash(MarkerDevice), writes)
	if err != nil {
		return 0, err
	}
	if _, err := tx.Write(ctx, rows); err != nil {
		return 0, err
	}
	return len(rows), nil
}
