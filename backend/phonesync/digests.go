package phonesync

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// Reading in only what changed (docs/adr/0035-phone-sync-reads-what-changed.md):
// a phone uploads its whole library on every chapter read, app start and
// resume, and almost all of it is what the last upload said. Each manga
// of an upload gets a 64-bit digest of its bytes (and of the library's
// source lists and the Sites this server reads, which decide what a manga
// maps to); the Reader's row keeps, sealed, the digests of the manga the
// last reading covered (phone_sync.read_digests). An upload reads in
// only the manga whose digest is not kept, with the source lists beside
// them, which the .tachibk reader takes as a library of its own.

// Top-level fields of a Backup the plan looks at (Mihon's backup models;
// imports/tachibk reads the same).
const (
	fieldManga         = 1
	fieldBrokenSources = 100
	fieldSources       = 101
)

// digestVersion changes when what reading a manga does changes: every
// stored digest is then stale and the next upload reads everything.
const digestVersion = "phonesync read digests v1"

// digestFlagOnSite marks a kept digest whose manga is a favourite on one
// of the Sites (counted in a result's matched).
const digestFlagOnSite = 1

// digestDone marks, while a plan is read, a manga whose reading is done
// (never stored).
const digestDone = 0x80

// entryLen is one kept digest as stored: 8 bytes of digest, 1 of flags.
const entryLen = 9

// keptDigests are the digests the last reading covered, with their flags.
type keptDigests map[uint64]byte

// readPlan is what of one upload is read in.
type readPlan struct {
	manga   int      // manga in the upload
	digests []uint64 // of each manga, in order
	changed []int    // the manga to read (indices into digests)
	sub     []byte   // the source lists and the changed manga: a library of its own (lib when all changed)
	kept    int      // manga not read: their digest is kept
	onSite  int      // of those, favourites on one of the Sites
}

// digestSalt is what every digest is made with besides a manga's bytes:
// the version and the Sites this server reads.
func digestSalt(reg *sites.Registry) []byte {
	return []byte(digestVersion + "\x00" + strings.Join(reg.Names(), "\x00"))
}

// planRead walks the top level of lib (never into a manga) and plans
// which manga to read given what was kept. ok is false for bytes that do
// not walk as protobuf: the whole library is then read (and refused with
// the .tachibk reader's reason).
func planRead(lib, salt []byte, kept keptDigests) (readPlan, bool) {
	type span struct{ from, to int }
	var manga, sources []span
	for at := 0; at < len(lib); {
		num, typ, n := protowire.ConsumeTag(lib[at:])
		if n < 0 {
			return readPlan{}, false
		}
		m := protowire.ConsumeFieldValue(num, typ, lib[at+n:])
		if m < 0 {
			return readPlan{}, false
		}
		s := span{at, at + n + m}
		switch {
		case typ == protowire.BytesType && num == fieldManga:
			manga = append(manga, s)
		case typ == protowire.BytesType && (num == fieldSources || num == fieldBrokenSources):
			sources = append(sources, s)
		}
		at = s.to
	}
	// The seed: the salt and the source lists, whose names map a manga's
	// source to a Site.
	d := xxhash.New()
	_, _ = d.Write(salt)
	for _, s := range sources {
		_, _ = d.Write(lib[s.from:s.to])
	}
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], d.Sum64())

	p := readPlan{manga: len(manga), digests: make([]uint64, len(manga))}
	for i, s := range manga {
		d.Reset()
		_, _ = d.Write(seed[:])
		_, _ = d.Write(lib[s.from:s.to])
		p.digests[i] = d.Sum64()
		if flags, ok := kept[p.digests[i]]; ok {
			p.kept++
			if flags&digestFlagOnSite != 0 {
				p.onSite++
			}
			continue
		}
		p.changed = append(p.changed, i)
	}
	if len(p.changed) == len(manga) {
		p.sub = lib // everything is read: the library as it came
		return p, true
	}
	size := 0
	for _, s := range sources {
		size += s.to - s.from
	}
	for _, i := range p.changed {
		size += manga[i].to - manga[i].from
	}
	p.sub = make([]byte, 0, size)
	for _, s := range sources {
		p.sub = append(p.sub, lib[s.from:s.to]...)
	}
	for _, i := range p.changed {
		p.sub = append(p.sub, lib[manga[i].from:manga[i].to]...)
	}
	return p, true
}

// readFlags says, for each manga of b (the manga a plan read, in its
// order), whether reading it is done and whether it is a favourite the
// import reader maps to one of the Sites (what a result's matched
// counts): digestDone unless the limits refused its Series (refused), so
// the next upload reads it again.
func readFlags(b *tachibk.Backup, reg *sites.Registry, refused map[store.SyncKey]bool) []byte {
	out := make([]byte, len(b.Manga))
	one := tachibk.Backup{Sources: b.Sources}
	for i := range b.Manga {
		out[i] = digestDone
		one.Manga = b.Manga[i : i+1]
		p, err := imports.ParseTachibk(&one, reg)
		if err != nil || len(p.Items) == 0 {
			continue
		}
		out[i] |= digestFlagOnSite
		if ref, err := reg.Canonicalize(p.Items[0].URL); err == nil && refused[store.SyncKey{Site: ref.Site, SeriesID: ref.SeriesID}] {
			out[i] &^= digestDone
		}
	}
	return out
}

// nextDigests are the digests to keep after reading p: the kept ones the
// upload still holds, and each read one whose reading is done (flags:
// what readFlags said of each read manga; the done bit is not stored).
func nextDigests(p readPlan, kept keptDigests, flags []byte) []byte {
	type entry struct {
		d uint64
		f byte
	}
	out := make([]entry, 0, len(p.digests))
	k := 0 // into p.changed, which planRead made in order
	for i, d := range p.digests {
		if k < len(p.changed) && p.changed[k] == i {
			if k < len(flags) && flags[k]&digestDone != 0 {
				out = append(out, entry{d, flags[k] &^ digestDone})
			}
			k++
			continue
		}
		out = append(out, entry{d, kept[d]})
	}
	slices.SortFunc(out, func(a, b entry) int { return cmp.Compare(a.d, b.d) })
	out = slices.CompactFunc(out, func(a, b entry) bool { return a.d == b.d })
	b := make([]byte, 0, len(out)*entryLen)
	for _, e := range out {
		b = binary.BigEndian.AppendUint64(b, e.d)
		b = append(b, e.f)
	}
	return b
}

// parseDigests reads kept digests as nextDigests wrote them; anything
// else is none kept (everything is read).
func parseDigests(b []byte) keptDigests {
	if len(b)%entryLen != 0 {
		return nil
	}
	out := make(keptDigests, len(b)/entryLen)
	for ; len(b) > 0; b = b[entryLen:] {
		out[binary.BigEndian.Uint64(b)] = b[8]
	}
	return out
}
