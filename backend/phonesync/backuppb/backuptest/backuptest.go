// Package backuptest builds phone libraries for tests, from the backup
// model in backuppb (Mihon's and TachiyomiSY's Kotlin models, SY-stable in
// docs/sources.md ("Phone sync") §4, last checked 2026-12-06; see
// ../README.md), and compares two libraries field by field.
package backuptest

import (
	"fmt"
	"math/rand/v2"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// MangaPill is MangaPill's source id (docs/sources.md (phone sync) §4).
const MangaPill int64 = 8448310129093543312

// Library is a generated library's shape.
type Library struct {
	Manga      int
	Chapters   int // per manga
	Categories int
	Prefix     string // distinguishes two devices' manga
	FirstOrder int    // the first category's order value
	// Modified is the lastModifiedAt (seconds) of every manga and chapter
	// (0: a time in 2025 drawn from the seed).
	Modified int64
}

func modified(rng *rand.Rand, l Library) int64 {
	if l.Modified != 0 {
		return l.Modified
	}
	return int64(1_760_000_000 + rng.IntN(1000))
}

// Build returns a Backup with every field of every message set, the way
// a phone that used the app for a while writes it: categories with uids
// and versions, manga with tracking, history and SY fields, chapters some
// read. rng drives the values, so a seed gives the same library.
func Build(msgs bp.Messages, rng *rand.Rand, l Library) *dynamicpb.Message {
	b := bp.New(msgs.Backup)
	for i := range l.Categories {
		c := bp.New(msgs.Category)
		bp.Set(c, "name", fmt.Sprintf("%sCategory %d", l.Prefix, i))
		bp.Set(c, "order", int64(l.FirstOrder+i))
		bp.Set(c, "id", int64(i+1))
		bp.Set(c, "flags", rng.Int64N(64))
		bp.Set(c, "version", int64(1+rng.IntN(3)))
		bp.Set(c, "uid", int64(1000+l.FirstOrder+i))
		bp.Set(c, "last_modified_at", int64(1_760_000_000+rng.IntN(1000)))
		bp.Append(b, "backup_categories", c)
	}
	for i := range l.Manga {
		bp.Append(b, "backup_manga", Manga(msgs, rng, l, i))
	}
	s := bp.New(msgs.Source)
	bp.Set(s, "name", "MangaPill")
	bp.Set(s, "source_id", MangaPill)
	bp.Append(b, "backup_sources", s)
	p := bp.New(msgs.Preference)
	bp.Set(p, "key", "pref_"+l.Prefix)
	bp.Set(p, "value", []byte{0x0a, 0x03, 'I', 'n', 't', 0x12, 0x02, 0x08, 0x05})
	bp.Append(b, "backup_preferences", p)
	KotlinxDefaults(b)
	return b
}

// KotlinxDefaults clears, in m and the messages in it, every field that
// holds its Kotlin default, as kotlinx's ProtoBuf leaves such a field
// out: zero numbers, false, "" (and BackupManga.favorite when true).
func KotlinxDefaults(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := range l.Len() {
				KotlinxDefaults(l.Get(i).Message())
			}
		case fd.IsList():
		case fd.Message() != nil:
			KotlinxDefaults(v.Message())
		case fd.Name() == "favorite" && m.Descriptor().Name() == "BackupManga":
			if v.Bool() {
				m.Clear(fd)
			}
		case v.Equal(fd.Default()):
			m.Clear(fd)
		}
		return true
	})
}

// Manga returns the i-th manga of l.
func Manga(msgs bp.Messages, rng *rand.Rand, l Library, i int) *dynamicpb.Message {
	m := bp.New(msgs.Manga)
	url := fmt.Sprintf("/manga/%s%d/title-%d", l.Prefix, i, i)
	bp.Set(m, "source", MangaPill)
	bp.Set(m, "url", url)
	bp.Set(m, "title", fmt.Sprintf("Title %s%d", l.Prefix, i))
	bp.Set(m, "artist", "Artist")
	bp.Set(m, "author", "Author")
	bp.Set(m, "description", "A story.")
	l2 := m.Mutable(bp.Field(m, "genre")).List()
	l2.Append(protoreflect.ValueOfString("Action"))
	l2.Append(protoreflect.ValueOfString("Drama"))
	bp.Set(m, "status", int32(rng.IntN(6)))
	bp.Set(m, "thumbnail_url", "https://cdn.example/"+url+".jpg")
	bp.Set(m, "date_added", int64(1_760_000_000_000+rng.IntN(1_000_000)))
	bp.Set(m, "viewer_flags", int32(rng.IntN(16)))
	bp.Set(m, "favorite", rng.IntN(5) != 0)
	bp.Set(m, "chapter_flags", int32(rng.IntN(8)))
	bp.Set(m, "update_strategy", int32(rng.IntN(2)))
	bp.Set(m, "last_modified_at", modified(rng, l))
	bp.Set(m, "version", int64(1+rng.IntN(5)))
	bp.Set(m, "notes", "note")
	bp.Set(m, "initialized", true)
	bp.Set(m, "custom_title", "My title")
	if l.Categories > 0 {
		bp.SetInts(m, "categories", []int64{int64(l.FirstOrder + rng.IntN(l.Categories))})
	}
	for c := range l.Chapters {
		ch := bp.New(msgs.Chapter)
		bp.Set(ch, "url", fmt.Sprintf("/chapters/%s%d-%d", l.Prefix, i, c+1))
		bp.Set(ch, "name", fmt.Sprintf("Chapter %d", c+1))
		bp.Set(ch, "scanlator", "group")
		read := c < l.Chapters/2
		bp.Set(ch, "read", read)
		bp.Set(ch, "bookmark", rng.IntN(10) == 0)
		bp.Set(ch, "last_page_read", int64(rng.IntN(30)))
		bp.Set(ch, "date_fetch", int64(1_760_000_000_000+c))
		bp.Set(ch, "date_upload", int64(1_750_000_000_000+c))
		bp.Set(ch, "chapter_number", float32(c+1))
		bp.Set(ch, "source_order", int64(l.Chapters-c))
		bp.Set(ch, "last_modified_at", modified(rng, l))
		bp.Set(ch, "version", int64(1+rng.IntN(3)))
		bp.Append(m, "chapters", ch)
		if read {
			h := bp.New(msgs.History)
			bp.Set(h, "url", fmt.Sprintf("/chapters/%s%d-%d", l.Prefix, i, c+1))
			bp.Set(h, "last_read", int64(1_760_000_000_000+rng.IntN(1_000_000)))
			bp.Set(h, "read_duration", int64(rng.IntN(600_000)))
			bp.Append(m, "history", h)
		}
	}
	t := bp.New(msgs.Tracking)
	bp.Set(t, "sync_id", int32(2))
	bp.Set(t, "library_id", int64(rng.IntN(1_000_000)))
	bp.Set(t, "tracking_url", fmt.Sprintf("https://anilist.co/manga/%d", 100+i))
	bp.Set(t, "title", "Title")
	bp.Set(t, "last_chapter_read", float32(l.Chapters/2))
	bp.Set(t, "total_chapters", int32(l.Chapters))
	bp.Set(t, "score", float32(rng.IntN(10)))
	bp.Set(t, "status", int32(1))
	bp.Set(t, "started_reading_date", int64(1_760_000_000_000))
	bp.Set(t, "private", rng.IntN(2) == 0)
	bp.Set(t, "media_id", int64(100+i))
	bp.Append(m, "tracking", t)
	KotlinxDefaults(m)
	return m
}
