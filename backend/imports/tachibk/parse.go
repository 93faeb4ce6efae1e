package tachibk

import (
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// field is one field of a message: its number, wire type and value (the
// bytes of a length-delimited field, or the number of a varint/fixed one).
type field struct {
	num   protowire.Number
	typ   protowire.Type
	bytes []byte
	n     uint64
}

// walk calls fn for every field of msg, skipping any it does not read; a
// field that does not parse is ErrMalformed, with what was being read.
func walk(msg []byte, what string, fn func(f field) error) error {
	return walkFields(msg, what, false, fn)
}

// walkFields is walk; zeroOK also accepts field number 0, which protobuf
// forbids and the legacy models' kotlinx output carries.
func walkFields(msg []byte, what string, zeroOK bool, fn func(f field) error) error {
	for len(msg) > 0 {
		v, n := protowire.ConsumeVarint(msg)
		if n < 0 {
			return malformed(protowire.ParseError(n), "a %s entry is damaged", what)
		}
		num, typ := protowire.DecodeTag(v)
		if num < 0 || (num == 0 && !zeroOK) {
			return malformed(nil, "a %s entry is damaged (field number %d)", what, num)
		}
		msg = msg[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(msg)
		case protowire.VarintType:
			f.n, n = protowire.ConsumeVarint(msg)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(msg)
			f.n = uint64(v)
		default:
			n = protowire.ConsumeFieldValue(num, typ, msg)
		}
		if n < 0 {
			return malformed(protowire.ParseError(n), "a %s entry is damaged", what)
		}
		msg = msg[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

func parseSource(msg []byte) (Source, error) {
	var s Source
	err := walk(msg, "source", func(f field) error {
		switch {
		case f.num == fSourceName && f.typ == protowire.BytesType:
			s.Name = string(f.bytes)
		case f.num == fSourceID && f.typ == protowire.VarintType:
			s.ID = int64(f.n)
		}
		return nil
	})
	return s, err
}

// parseBrokenSource reads one entry of the legacy source list, whose
// fields are numbered from 0.
func parseBrokenSource(msg []byte) (Source, error) {
	s := Source{Legacy: true}
	err := walkFields(msg, "source", true, func(f field) error {
		switch {
		case f.num == fBrokenSourceName && f.typ == protowire.BytesType:
			s.Name = string(f.bytes)
		case f.num == fBrokenSourceID && f.typ == protowire.VarintType:
			s.ID = int64(f.n)
		}
		return nil
	})
	return s, err
}

// parseTracking reads one BackupTracking row.
func parseTracking(msg []byte) (Tracking, error) {
	var t Tracking
	var legacy int32
	err := walk(msg, "tracking", func(f field) error {
		switch {
		case f.num == fTrackSyncID && f.typ == protowire.VarintType:
			t.SyncID = int(int32(f.n))
		case f.num == fTrackMediaIDInt && f.typ == protowire.VarintType:
			legacy = int32(f.n)
		case f.num == fTrackMediaID && f.typ == protowire.VarintType:
			t.MediaID = int64(f.n)
		case f.num == fTrackURL && f.typ == protowire.BytesType:
			if len(f.bytes) <= MaxURL {
				t.URL = string(f.bytes)
			}
		}
		return nil
	})
	if legacy != 0 { // Mihon: mediaIdInt when set, else mediaId
		t.MediaID = int64(legacy)
	}
	if t.MediaID < 0 {
		t.MediaID = 0
	}
	return t, err
}

// parseReference reads one merged reference.
func parseReference(msg []byte) (Reference, error) {
	var r Reference
	err := walk(msg, "merged reference", func(f field) error {
		switch {
		case f.num == fMergedMangaURL && f.typ == protowire.BytesType:
			r.URL = string(f.bytes)
		case f.num == fMergedSourceID && f.typ == protowire.VarintType:
			r.Source = int64(f.n)
		}
		return nil
	})
	return r, err
}

// tracked reports whether the import keeps rows of tracker id.
func tracked(id int) bool {
	switch id {
	case SyncMyAnimeList, SyncAniList, SyncKitsu, SyncMangaUpdates, SyncMangaBaka:
		return true
	}
	return false
}

// history is one BackupHistory: a chapter URL (a slice of its manga's
// message) and when it was last read.
type history struct {
	url      []byte
	lastRead int64
}

// parseManga reads one manga in two walks: the first takes its fields,
// its tracking rows and merged references (within their bounds) and
// finds the furthest chapter read (checking every history entry parses),
// the second matches the history entries to that chapter. No list of
// chapters or history entries is kept, so a manga of a million empty
// entries costs no more memory than its message.
func parseManga(msg []byte) (Manga, error) {
	m := Manga{Favorite: true} // Kotlin's default, which kotlinx does not write
	err := walk(msg, "manga", func(f field) error {
		switch {
		case f.num == fMangaSource && f.typ == protowire.VarintType:
			m.Source = int64(f.n)
		case f.num == fMangaURL && f.typ == protowire.BytesType:
			m.URL = string(f.bytes)
		case f.num == fMangaTitle && f.typ == protowire.BytesType:
			m.Title = string(f.bytes)
		case f.num == fMangaFavorite && f.typ == protowire.VarintType:
			m.Favorite = f.n != 0
		case f.num == fMangaChapters && f.typ == protowire.BytesType:
			c, err := parseChapter(f.bytes)
			if err != nil {
				return err
			}
			if c.Read && c.Number > m.Read.Number {
				m.Read = c
			}
		case f.num == fMangaHistory && f.typ == protowire.BytesType:
			_, err := parseHistory(f.bytes)
			return err
		// A tracking row or merged reference that does not parse is
		// dropped alone: backups without them imported before they were
		// read, and a fork may number its own fields alike.
		case f.num == fMangaTracking && f.typ == protowire.BytesType:
			t, err := parseTracking(f.bytes)
			if err == nil && tracked(t.SyncID) && !slices.ContainsFunc(m.Tracking, func(have Tracking) bool { return have.SyncID == t.SyncID }) {
				m.Tracking = append(m.Tracking, t)
			}
		case f.num == fMangaMerged && f.typ == protowire.BytesType:
			r, err := parseReference(f.bytes)
			if err == nil && len(m.Merged) < MaxMerged && r.URL != "" && len(r.URL) <= MaxURL {
				m.Merged = append(m.Merged, r)
			}
		}
		return nil
	})
	if err != nil {
		return Manga{}, err
	}
	if m.Read.Number > 0 {
		m.ReadAt = m.Read.DateFetch
		// The first walk parsed every field, so this one meets no error.
		_ = walk(msg, "manga", func(f field) error {
			if f.num != fMangaHistory || f.typ != protowire.BytesType {
				return nil
			}
			h, err := parseHistory(f.bytes)
			if err == nil && string(h.url) == m.Read.URL && h.lastRead > 0 {
				m.ReadAt = h.lastRead
			}
			return nil
		})
	}
	return m, nil
}

func parseChapter(msg []byte) (Chapter, error) {
	var c Chapter
	err := walk(msg, "chapter", func(f field) error {
		switch {
		case f.num == fChapterURL && f.typ == protowire.BytesType:
			c.URL = string(f.bytes)
		case f.num == fChapterRead && f.typ == protowire.VarintType:
			c.Read = f.n != 0
		case f.num == fChapterDateFetch && f.typ == protowire.VarintType:
			c.DateFetch = int64(f.n)
		case f.num == fChapterNumber && f.typ == protowire.Fixed32Type:
			v := math.Float32frombits(uint32(f.n))
			if v > 0 && !math.IsInf(float64(v), 0) && !math.IsNaN(float64(v)) {
				c.Number = v
			}
		}
		return nil
	})
	return c, err
}

func parseHistory(msg []byte) (history, error) {
	var h history
	err := walk(msg, "history", func(f field) error {
		switch {
		case f.num == fHistoryURL && f.typ == protowire.BytesType:
			h.url = f.bytes
		case f.num == fHistoryLastRead && f.typ == protowire.VarintType:
			h.lastRead = int64(f.n)
		}
		return nil
	})
	return h, err
}
