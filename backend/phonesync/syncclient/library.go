// Package syncclient is a SyncYomi client for tests, benchmarks and the
// demo: it holds a phone's library as the app does and syncs it with a
// server the way TachiyomiSY's client does (v1.go after SY-stable's
// SyncYomi v1 client; v2.go after SY-v2's protocol v2 client: docs/sources.md
// ("Phone sync") §2 and §3, last checked 2026-12-06). The library model
// follows Mihon's backup models field by field
// (docs/sources.md ("Phone sync") §4); every field the client does not
// look at is kept as its raw bytes, so what a server answers can be
// compared field by field with what was uploaded.
package syncclient

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field is one protobuf field kept whole: its number and its bytes (tag
// and value), as they came.
type Field struct {
	Num protowire.Number
	Raw []byte
}

// Library is a Backup as the app holds it: its manga, and every other
// top-level field (categories, sources, preferences...) raw.
type Library struct {
	Manga []Manga
	Other []Field
}

// Manga is a BackupManga: source 1, url 2, title 3, chapters 16, favorite
// 100 (absent: true), lastModifiedAt 106, version 109; the rest raw.
type Manga struct {
	Source         int64
	URL            string
	Title          string
	Favorite       bool
	LastModifiedAt int64 // seconds
	Version        int64
	Chapters       []Chapter
	Other          []Field
}

// Chapter is a BackupChapter: url 1, name 2, read 4, lastPageRead 6,
// chapterNumber 9 (fixed32), lastModifiedAt 11, version 12; the rest raw.
type Chapter struct {
	URL            string
	Name           string
	Read           bool
	LastPageRead   int64
	Number         float32
	LastModifiedAt int64 // seconds
	Version        int64
	Other          []Field
}

// Key is a manga's key in the client's merge: source and url.
func (m Manga) Key() string { return fmt.Sprintf("%d|%s", m.Source, m.URL) }

// Decode reads a Backup's raw protobuf.
func Decode(b []byte) (*Library, error) {
	lib := &Library{}
	err := fields(b, func(num protowire.Number, typ protowire.Type, raw, v []byte, _ uint64) error {
		if num == 1 && typ == protowire.BytesType {
			m, err := decodeManga(v)
			if err != nil {
				return err
			}
			lib.Manga = append(lib.Manga, m)
			return nil
		}
		lib.Other = append(lib.Other, Field{num, raw})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return lib, nil
}

func decodeManga(b []byte) (Manga, error) {
	m := Manga{Favorite: true}
	err := fields(b, func(num protowire.Number, typ protowire.Type, raw, v []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			m.Source = int64(x)
		case num == 2 && typ == protowire.BytesType:
			m.URL = string(v)
		case num == 3 && typ == protowire.BytesType:
			m.Title = string(v)
		case num == 16 && typ == protowire.BytesType:
			c, err := decodeChapter(v)
			if err != nil {
				return err
			}
			m.Chapters = append(m.Chapters, c)
		case num == 100 && typ == protowire.VarintType:
			m.Favorite = x != 0
		case num == 106 && typ == protowire.VarintType:
			m.LastModifiedAt = int64(x)
		case num == 109 && typ == protowire.VarintType:
			m.Version = int64(x)
		default:
			m.Other = append(m.Other, Field{num, raw})
		}
		return nil
	})
	return m, err
}

func decodeChapter(b []byte) (Chapter, error) {
	var c Chapter
	err := fields(b, func(num protowire.Number, typ protowire.Type, raw, v []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			c.URL = string(v)
		case num == 2 && typ == protowire.BytesType:
			c.Name = string(v)
		case num == 4 && typ == protowire.VarintType:
			c.Read = x != 0
		case num == 6 && typ == protowire.VarintType:
			c.LastPageRead = int64(x)
		case num == 9 && typ == protowire.Fixed32Type:
			c.Number = math.Float32frombits(uint32(x))
		case num == 11 && typ == protowire.VarintType:
			c.LastModifiedAt = int64(x)
		case num == 12 && typ == protowire.VarintType:
			c.Version = int64(x)
		default:
			c.Other = append(c.Other, Field{num, raw})
		}
		return nil
	})
	return c, err
}

// fields calls fn with each field of msg: its raw bytes and its value.
func fields(msg []byte, fn func(num protowire.Number, typ protowire.Type, raw, v []byte, x uint64) error) error {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return fmt.Errorf("syncclient: decode: %w", protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, msg[n:])
		if m < 0 {
			return fmt.Errorf("syncclient: decode: %w", protowire.ParseError(m))
		}
		raw, val := msg[:n+m], msg[n:n+m]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, _ = protowire.ConsumeVarint(val)
		case protowire.Fixed32Type:
			y, _ := protowire.ConsumeFixed32(val)
			x = uint64(y)
		case protowire.Fixed64Type:
			x, _ = protowire.ConsumeFixed64(val)
		case protowire.BytesType:
			v, _ = protowire.ConsumeBytes(val)
		}
		if err := fn(num, typ, raw, v, x); err != nil {
			return err
		}
		msg = msg[n+m:]
	}
	return nil
}

// Proto encodes the library as kotlinx.serialization does: fields in
// number order, a field at its Kotlin default left out, repeated fields
// unpacked.
func (l *Library) Proto() []byte {
	var out []byte
	for _, m := range l.Manga {
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, m.proto())
	}
	for _, f := range l.Other {
		out = append(out, f.Raw...)
	}
	return out
}

func (m Manga) proto() []byte {
	var out []byte
	out = appendVarint(out, 1, uint64(m.Source), true)
	out = appendString(out, 2, m.URL, true)
	out = appendString(out, 3, m.Title, false)
	out = appendOther(out, m.Other, 0, 16)
	for _, c := range m.Chapters {
		out = protowire.AppendTag(out, 16, protowire.BytesType)
		out = protowire.AppendBytes(out, c.proto())
	}
	out = appendOther(out, m.Other, 16, 100)
	if !m.Favorite {
		out = appendVarint(out, 100, 0, true)
	}
	out = appendOther(out, m.Other, 100, 106)
	out = appendVarint(out, 106, uint64(m.LastModifiedAt), false)
	out = appendOther(out, m.Other, 106, 109)
	out = appendVarint(out, 109, uint64(m.Version), false)
	return appendOther(out, m.Other, 109, math.MaxInt32)
}

func (c Chapter) proto() []byte {
	var out []byte
	out = appendString(out, 1, c.URL, false)
	out = appendString(out, 2, c.Name, false)
	out = appendOther(out, c.Other, 2, 4)
	if c.Read {
		out = appendVarint(out, 4, 1, true)
	}
	out = appendOther(out, c.Other, 4, 6)
	out = appendVarint(out, 6, uint64(c.LastPageRead), false)
	out = appendOther(out, c.Other, 6, 9)
	if c.Number != 0 {
		out = protowire.AppendTag(out, 9, protowire.Fixed32Type)
		out = protowire.AppendFixed32(out, math.Float32bits(c.Number))
	}
	out = appendOther(out, c.Other, 9, 11)
	out = appendVarint(out, 11, uint64(c.LastModifiedAt), false)
	out = appendVarint(out, 12, uint64(c.Version), false)
	return appendOther(out, c.Other, 12, math.MaxInt32)
}

// appendOther appends the kept fields numbered above after and below
// before, in their order.
func appendOther(out []byte, other []Field, after, before protowire.Number) []byte {
	for _, f := range other {
		if f.Num > after && f.Num < before {
			out = append(out, f.Raw...)
		}
	}
	return out
}

func appendVarint(out []byte, num protowire.Number, v uint64, always bool) []byte {
	if v == 0 && !always {
		return out
	}
	out = protowire.AppendTag(out, num, protowire.VarintType)
	return protowire.AppendVarint(out, v)
}

func appendString(out []byte, num protowire.Number, s string, always bool) []byte {
	if s == "" && !always {
		return out
	}
	out = protowire.AppendTag(out, num, protowire.BytesType)
	return protowire.AppendString(out, s)
}

// Clone is a deep copy.
func (l *Library) Clone() *Library {
	c, err := Decode(l.Proto())
	if err != nil {
		panic(err) // Proto always decodes
	}
	return c
}

// Equal says whether two libraries hold the same manga, chapters and
// other fields, field by field (the order of manga and chapters aside).
func Equal(a, b *Library) bool {
	return bytes.Equal(canonical(a), canonical(b))
}

func canonical(l *Library) []byte {
	c := l.Clone()
	slices.SortFunc(c.Manga, func(x, y Manga) int { return compareStrings(x.Key(), y.Key()) })
	for i := range c.Manga {
		slices.SortFunc(c.Manga[i].Chapters, func(x, y Chapter) int { return compareStrings(x.URL, y.URL) })
	}
	slices.SortFunc(c.Other, func(x, y Field) int { return bytes.Compare(x.Raw, y.Raw) })
	return c.Proto()
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
