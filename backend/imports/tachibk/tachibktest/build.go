// Package tachibktest writes Mihon/Tachiyomi backups for tests and
// benchmarks, field by field as Mihon's backup models number them (see
// backend/imports/tachibk/testdata/README.md), with protowire. It also
// writes fields Mihon has and the reader skips (description, genres,
// categories, tracking, preferences) and a fork's extra fields, so tests
// show those are harmless. It imports nothing of the project.
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
}

// Chapter is a BackupChapter.
type Chapter struct {
	URL       string
	Name      string
	Read      bool
	Number    float32
	DateFetch int64
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
		msg = appendMsg(msg, 16, cm)
	}
	msg = appendVarint(msg, 17, 1) // a category, unpacked as kotlinx writes it
	msg = appendMsg(msg, 18, appendStr(appendVarint(nil, 1, 2), 4, "https://anilist.co/manga/1"))
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
	if m.Fork {
		msg = appendStr(msg, 602, "SY custom title")
		msg = appendVarint(msg, 800, 7)
		msg = protowire.AppendTag(msg, 801, protowire.Fixed64Type)
		msg = protowire.AppendFixed64(msg, 42)
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
