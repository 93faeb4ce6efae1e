package phonesync

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/imports/tachibk"
	"mangabookmark/backend/store"
)

// Field numbers of Mihon's backup models (SY-stable's
// app/src/main/java/eu/kanade/tachiyomi/data/backup/models/, as
// docs/sources.md ("Phone sync") §4 lists them) that reads out reads or
// writes.
const (
	fBackupManga         = 1
	fBackupBrokenSources = 100
	fBackupSources       = 101

	fSourceName       = 1
	fSourceID         = 2
	fBrokenSourceName = 0
	fBrokenSourceID   = 1

	fMangaSource   = 1
	fMangaURL      = 2
	fMangaChapters = 16

	fChapterRead     = 4
	fChapterNumber   = 9
	fChapterModified = 11 // lastModifiedAt, seconds
	fChapterVersion  = 12
)

// outManga is one manga of the library that reads out may touch.
type outManga struct {
	index    int // its place among the Backup's manga records
	source   int64
	url      string
	key      store.SyncKey // its Series on one of the Sites ("" Site: none)
	maxRead  float64
	chapters []outChapter
}

type outChapter struct {
	number float64 // 0 when none or not above 0
	read   bool
}

// ReadsOut is the library as a GET answers it: for each manga on one of
// the Sites whose Progress (the Reader's, in that Series' numbers, through
// its Work and offsets) stands above the furthest chapter the library
// marks read, and was set by a read made anywhere but this library's own
// uploads (its source is not sync), each of the library's own chapter
// entries numbered above zero and up to that Progress, not read, is
// rewritten: read true, version one above its own, lastModifiedAt now
// (seconds), every other field and every other byte as uploaded. Nothing
// is ever marked unread, no chapter is added. With nothing to mark it
// returns backup itself; a library that does not parse is returned as
// stored.
func (s *Service) ReadsOut(ctx context.Context, readerID int64, backup []byte) ([]byte, error) {
	mangas, sources, ok := scanLibrary(backup)
	if !ok || len(mangas) == 0 {
		return backup, nil
	}
	names := imports.TachibkSources(sources)
	var keys []store.SyncKey
	var mapped []*outManga
	for i := range mangas {
		m := &mangas[i]
		ref, ok := imports.TachibkSeries(s.cfg.Sites, names[m.source], m.source, m.url)
		if !ok {
			continue
		}
		m.key = store.SyncKey{Site: ref.Site, SeriesID: ref.SeriesID}
		keys = append(keys, m.key)
		mapped = append(mapped, m)
	}
	if len(keys) == 0 {
		return backup, nil
	}
	prog, err := s.cfg.Store.ReaderSyncProgress(ctx, readerID, keys)
	if err != nil {
		return nil, fmt.Errorf("phonesync: reads out: %w", err)
	}
	marks := map[int]map[int]bool{} // manga index -> chapter indexes to mark
	for _, m := range mapped {
		p, ok := prog[m.key]
		if !ok || p.Source == store.IDFromSync || p.Number <= m.maxRead {
			continue
		}
		for j, c := range m.chapters {
			if !c.read && c.number > 0 && c.number <= p.Number {
				if marks[m.index] == nil {
					marks[m.index] = map[int]bool{}
				}
				marks[m.index][j] = true
			}
		}
	}
	if len(marks) == 0 {
		return backup, nil
	}
	return rewriteLibrary(backup, marks, uint64(s.cfg.Now().Unix())), nil
}

// scanLibrary reads each manga record's source, URL and chapters, and the
// source lists; ok is false when the library does not parse.
func scanLibrary(b []byte) ([]outManga, []tachibk.Source, bool) {
	var mangas []outManga
	var sources []tachibk.Source
	idx := 0
	ok := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) bool {
		if typ != protowire.BytesType {
			return true
		}
		switch num {
		case fBackupManga:
			m, ok := scanManga(v)
			if !ok {
				return false
			}
			m.index = idx
			idx++
			mangas = append(mangas, m)
		case fBackupSources, fBackupBrokenSources:
			src := tachibk.Source{Legacy: num == fBackupBrokenSources}
			nameF, idF := protowire.Number(fSourceName), protowire.Number(fSourceID)
			if src.Legacy {
				nameF, idF = fBrokenSourceName, fBrokenSourceID
			}
			eachFieldZero(v, func(n protowire.Number, t protowire.Type, w []byte, x uint64) bool {
				switch {
				case n == nameF && t == protowire.BytesType:
					src.Name = string(w)
				case n == idF && t == protowire.VarintType:
					src.ID = int64(x)
				}
				return true
			})
			sources = append(sources, src)
		}
		return true
	})
	if !ok {
		return nil, nil, false
	}
	return mangas, sources, true
}

// scanManga reads one BackupManga.
func scanManga(b []byte) (outManga, bool) {
	var m outManga
	ok := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) bool {
		switch {
		case num == fMangaSource && typ == protowire.VarintType:
			m.source = int64(x)
		case num == fMangaURL && typ == protowire.BytesType:
			m.url = string(v)
		case num == fMangaChapters && typ == protowire.BytesType:
			var c outChapter
			if !eachField(v, func(n protowire.Number, t protowire.Type, _ []byte, y uint64) bool {
				switch {
				case n == fChapterRead && t == protowire.VarintType:
					c.read = y != 0
				case n == fChapterNumber && t == protowire.Fixed32Type:
					c.number = chapterNumber(math.Float32frombits(uint32(y)))
				}
				return true
			}) {
				return false
			}
			m.chapters = append(m.chapters, c)
			if c.read && c.number > m.maxRead {
				m.maxRead = c.number
			}
		}
		return true
	})
	return m, ok
}

// chapterNumber is a chapter's number as the import reads it (the
// float32's shortest decimal), 0 when not above zero or not finite.
func chapterNumber(f float32) float64 {
	if !(f > 0) || math.IsInf(float64(f), 0) {
		return 0
	}
	n, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'f', -1, 32), 64)
	if err != nil {
		return 0
	}
	return n
}
