// Package tachibktest writes Mihon/Tachiyomi backups for tests and
// benchmarks, field by field as Mihon's backup models number them (see
// backend/imports/tachibk/testdata/README.md), with protowire: tracking
// rows, TachiyomiSY merged references and the legacy source list among
// them. It also writes fields Mihon has and the reader skips (description,
// genres, categories, a tracking row's title and status, preferences) and
// a fork's extra fields, so tests show those are harmless. It imports
// nothing of the project.
package tachibktest

import (
	"bytes"
	"compress/gzip"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Backup is a backup to write.
type Backup struct {
	Manga   []Manga
	Sources []Source
	// LegacySources writes Backup.backupBrokenSources (field 100), the
	// source list of older Tachiyomi backups, whose entries number their
	// fields from 0 (name 0, sourceId 1).
	LegacySources []Source
	// Preferences adds a Backup.backupPreferences entry (field 104), which
	// the reader must skip.
	Preferences bool
}

// Source is a BackupSource.
type Source struct {
	Name string
	ID   int64
}

// Manga is a BackupManga. A nil Favorite writes no field 100 (Kotlin's
// default true, which kotlinx leaves out).
type Manga struct {
	Source   int64
	URL      string
	Title    string
	Favorite *bool
	Chapters []Chapter
	History  []History
	// Fork adds fields TachiyomiSY (600+) and J2K (800+) write.
	Fork bool
	// Tracking writes BackupManga.tracking rows (field 18).
	Tracking []Track
	// Merged writes TachiyomiSY's BackupManga.mergedMangaReferences
	// (field 600).
	Merged []Merged
	// LastModifiedAt (seconds, field 106) and Version (field 109) are
	// written when not 0, as a sync client's library carries them.
	LastModifiedAt, Version int64
}

// Track is a BackupTracking row: syncId 1, mediaIdInt 3 (the legacy Int,
// written when not 0), trackingUrl 4, mediaId 100; the builder adds a
// libraryId, title, lastChapterRead and status the reader skips.
type Track struct {
	SyncID     int
	MediaID    int64
	MediaIDInt int32
	URL        string
}

// Merged is a BackupMergedMangaReference: isInfoManga 1, mergeUrl 6,
// mangaUrl 7, mangaSourceId 8.
type Merged struct {
	Info     bool
	MergeURL string
	URL      string
	SourceID int64
}

// Chapter is a BackupChapter.
type Chapter struct {
	URL       string
	Name      string
	Read      bool
	Number    float32
	DateFetch int64
	// LastModifiedAt (seconds, field 11) and Version (field 12) are
	// written when not 0, as a sync client's library carries them.
	LastModifiedAt, Version int64
}

// History is a BackupHistory.
type History struct {
	URL      string
	LastRead int64
}

// Bool returns a pointer to v, for Manga.Favorite.
func Bool(v bool) *bool { return &v }

// Proto is the backup as bare protobuf.
func (b Backup) Proto() []byte {
	var out []byte
	for _, m := range b.Manga {
		out = appendMsg(out, 1, m.proto())
	}
	out = appendMsg(out, 2, appendStr(nil, 1, "Default")) // a BackupCategory
	for _, s := range b.Sources {
		var msg []byte
		msg = appendStr(msg, 1, s.Name)
		msg = appendVarint(msg, 2, uint64(s.ID))
		out = appendMsg(out, 101, msg)
	}
	for _, s := range b.LegacySources {
		var msg []byte
		if s.Name != "" { // kotlinx leaves the default "" out
			msg = appendStr(msg, 0, s.Name)
		}
		msg = appendVarint(msg, 1, uint64(s.ID))
		out = appendMsg(out, 100, msg)
	}
	if b.Preferences {
		out = appendMsg(out, 104, appendStr(nil, 1, "pref_key"))
	}
	return out
}

// Gzip is the backup as Mihon writes it: gzip'd protobuf.
func (b Backup) Gzip() []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b.Proto())
	_ = zw.Close()
	return buf.Bytes()
}

func (m Manga) proto() []byte {
	var msg []byte
	msg = appendVarint(msg, 1, uint64(m.Source))
	msg = appendStr(msg, 2, m.URL)
	msg = appendStr(msg, 3, m.Title)
	msg = appendStr(msg, 6, "a description the reader skips")
	msg = appendStr(msg, 7, "Action")
	msg = appendStr(msg, 9, "https://example.org/cover.jpg")
	for _, c := range m.Chapters {
		var cm []byte
		cm = appendStr(cm, 1, c.URL)
		cm = appendStr(cm, 2, c.Name)
		if c.Read {
			cm = appendVarint(cm, 4, 1)
		}
		cm = appendVarint(cm, 6, 3) // lastPageRead
		cm = appendVarint(cm, 7, uint64(c.DateFetch))
		cm = protowire.AppendTag(cm, 9, protowire.Fixed32Type)
		cm = protowire.AppendFixed32(cm, math.Float32bits(c.Number))
		if c.LastModifiedAt != 0 {
			cm = appendVarint(cm, 11, uint64(c.LastModifiedAt))
		}
		if c.Version != 0 {
			cm = appendVarint(cm, 12, uint64(c.Version))
		}
		msg = appendMsg(msg, 16, cm)
	}
	msg = appendVarint(msg, 17, 1) // a category, unpacked as kotlinx writes it
	for _, t := range m.Tracking {
		msg = appendMsg(msg, 18, t.proto())
	}
	if m.Favorite != nil {
		v := uint64(0)
		if *m.Favorite {
			v = 1
		}
		msg = appendVarint(msg, 100, v)
	}
	for _, h := range m.History {
		msg = appendMsg(msg, 104, appendVarint(appendStr(nil, 1, h.URL), 2, uint64(h.LastRead)))
	}
	for _, r := range m.Merged {
		var rm []byte
		if r.Info {
			rm = appendVarint(rm, 1, 1)
		}
		rm = appendVarint(rm, 2, 1) // getChapterUpdates
		rm = appendStr(rm, 6, r.MergeURL)
		rm = appendStr(rm, 7, r.URL)
		rm = appendVarint(rm, 8, uint64(r.SourceID))
		msg = appendMsg(msg, 600, rm)
	}
	if m.LastModifiedAt != 0 {
		msg = appendVarint(msg, 106, uint64(m.LastModifiedAt))
	}
	if m.Version != 0 {
		msg = appendVarint(msg, 109, uint64(m.Version))
	}
	if m.Fork {
		msg = appendStr(msg, 602, "SY custom title")
		msg = appendVarint(msg, 800, 7)
		msg = protowire.AppendTag(msg, 801, protowire.Fixed64Type)
		msg = protowire.AppendFixed64(msg, 42)
	}
	return msg
}

func (t Track) proto() []byte {
	var msg []byte
	msg = appendVarint(msg, 1, uint64(int64(t.SyncID)))
	msg = appendVarint(msg, 2, 12345) // libraryId
	if t.MediaIDInt != 0 {
		msg = appendVarint(msg, 3, uint64(int64(t.MediaIDInt))) // an Int, sign-extended as protobuf writes int32
	}
	if t.URL != "" {
		msg = appendStr(msg, 4, t.URL)
	}
	msg = appendStr(msg, 5, "a tracker's title the reader skips")
	msg = protowire.AppendTag(msg, 6, protowire.Fixed32Type)
	msg = protowire.AppendFixed32(msg, math.Float32bits(3))
	msg = appendVarint(msg, 9, 1) // status
	if t.MediaID != 0 {
		msg = appendVarint(msg, 100, uint64(t.MediaID))
	}
	return msg
}

func appendMsg(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

func appendStr(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}
