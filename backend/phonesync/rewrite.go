package phonesync

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// eachField calls fn with every field of msg (for a varint or fixed field
// x is its value; for a length-delimited one v is its bytes); it stops
// and returns false at a field that does not parse or when fn returns
// false. Groups are skipped whole.
func eachField(msg []byte, fn func(num protowire.Number, typ protowire.Type, v []byte, x uint64) bool) bool {
	return walkFields(msg, false, fn)
}

// eachFieldZero is eachField that also takes field number 0 (the legacy
// source list's kotlinx output numbers its fields from 0).
func eachFieldZero(msg []byte, fn func(num protowire.Number, typ protowire.Type, v []byte, x uint64) bool) bool {
	return walkFields(msg, true, fn)
}

func walkFields(msg []byte, zeroOK bool, fn func(num protowire.Number, typ protowire.Type, v []byte, x uint64) bool) bool {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			// ConsumeTag refuses field number 0; read the tag by hand only
			// to allow it where the legacy models need it.
			tag, m := protowire.ConsumeVarint(msg)
			if m < 0 || !zeroOK || tag>>3 != 0 {
				return false
			}
			num, typ, n = 0, protowire.Type(tag&7), m
		}
		msg = msg[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(msg)
		case protowire.Fixed32Type:
			var y uint32
			y, n = protowire.ConsumeFixed32(msg)
			x = uint64(y)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(msg)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(msg)
		default:
			n = protowire.ConsumeFieldValue(num, typ, msg)
		}
		if n < 0 {
			return false
		}
		msg = msg[n:]
		if !fn(num, typ, v, x) {
			return false
		}
	}
	return true
}

// rawFields splits msg into its fields' raw bytes (tag and value), each
// with its number; nil, false when it does not parse.
func rawFields(msg []byte) ([]rawField, bool) {
	var out []rawField
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return nil, false
		}
		m := protowire.ConsumeFieldValue(num, typ, msg[n:])
		if m < 0 {
			return nil, false
		}
		out = append(out, rawField{num: num, typ: typ, raw: msg[:n+m], val: msg[n : n+m]})
		msg = msg[n+m:]
	}
	return out, true
}

type rawField struct {
	num protowire.Number
	typ protowire.Type
	raw []byte // tag and value
	val []byte // value (for bytes: with its length prefix)
}

// bytesOf is a length-delimited field's content.
func (f rawField) bytesOf() []byte {
	v, _ := protowire.ConsumeBytes(f.val)
	return v
}

// rewriteLibrary re-encodes the library with the chapters marks names
// (manga record index -> chapter index) marked read at now; every other
// field's bytes are copied as they are. The library parsed in
// scanLibrary, so a field that does not parse here is copied too.
func rewriteLibrary(b []byte, marks map[int]map[int]bool, now uint64) []byte {
	out := make([]byte, 0, len(b)+len(marks)*64)
	idx := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		m := -1
		if n >= 0 {
			m = protowire.ConsumeFieldValue(num, typ, b[n:])
		}
		if n < 0 || m < 0 {
			return append(out, b...)
		}
		raw := b[:n+m]
		b = b[n+m:]
		if num != fBackupManga || typ != protowire.BytesType {
			out = append(out, raw...)
			continue
		}
		chapters := marks[idx]
		idx++
		if chapters == nil {
			out = append(out, raw...)
			continue
		}
		v, _ := protowire.ConsumeBytes(raw[n:])
		out = protowire.AppendTag(out, fBackupManga, protowire.BytesType)
		out = protowire.AppendBytes(out, rewriteManga(v, chapters, now))
	}
	return out
}

// rewriteManga re-encodes one BackupManga with chapters marked read.
func rewriteManga(msg []byte, chapters map[int]bool, now uint64) []byte {
	fields, ok := rawFields(msg)
	if !ok {
		return msg
	}
	out := make([]byte, 0, len(msg)+len(chapters)*16)
	j := 0
	for _, f := range fields {
		if f.num != fMangaChapters || f.typ != protowire.BytesType {
			out = append(out, f.raw...)
			continue
		}
		mark := chapters[j]
		j++
		if !mark {
			out = append(out, f.raw...)
			continue
		}
		out = protowire.AppendTag(out, fMangaChapters, protowire.BytesType)
		out = protowire.AppendBytes(out, markRead(f.bytesOf(), now))
	}
	return out
}

// markRead re-encodes one BackupChapter with read true, version one above
// its own and lastModifiedAt now, in field order as kotlinx writes them;
// every other field's bytes are kept in place.
func markRead(msg []byte, now uint64) []byte {
	fields, ok := rawFields(msg)
	if !ok {
		return msg
	}
	var version uint64
	for _, f := range fields {
		if f.num == fChapterVersion && f.typ == protowire.VarintType {
			version, _ = protowire.ConsumeVarint(f.val)
		}
	}
	set := []struct {
		num protowire.Number
		val uint64
	}{{fChapterRead, 1}, {fChapterModified, now}, {fChapterVersion, version + 1}}
	done := make([]bool, len(set))
	out := make([]byte, 0, len(msg)+24)
	emit := func(k int) {
		if !done[k] {
			out = protowire.AppendTag(out, set[k].num, protowire.VarintType)
			out = protowire.AppendVarint(out, set[k].val)
			done[k] = true
		}
	}
	for _, f := range fields {
		replaced := false
		for k, s := range set {
			if f.num > s.num {
				emit(k) // a field kotlinx left out (its default) goes in its place
			}
			if f.num == s.num {
				emit(k)
				replaced = true
			}
		}
		if !replaced {
			out = append(out, f.raw...)
		}
	}
	for k := range set {
		emit(k)
	}
	return out
}
