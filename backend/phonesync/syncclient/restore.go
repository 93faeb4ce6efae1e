package syncclient

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// Restore applies a v2 answer over a phone's library the way TachiyomiSY's
// restore with sync = true does (jobobby04/TachiyomiSY
// app/src/main/java/eu/kanade/tachiyomi/data/backup/restore/restorers/MangaRestorer.kt
// at 96384efda159ad6f91a7b4b5058125d8e0327546, as docs/sources.md (phone sync)
// §3 reads it; SyncYomi docs/clients.md at
// 044b43dccf6d07e3c6e6ec46e19aaaf86244419c for the categories):
//   - categories: the answer's list is complete; a local category it
//     lacks is deleted, a new one added (matched by name);
//   - a manga (by source and url) the phone lacks is added whole; a known
//     one takes the answer's fields when the answer's version is higher,
//     favourite being local or remote;
//   - chapters by url: new ones are added; a known one that differs in
//     any field but dateFetch, dateUpload, lastModifiedAt and version takes
//     the answer's read, lastPageRead, sourceOrder and version, bookmark
//     being local or remote; chapters the answer lacks stay;
//   - history by chapter url: the later lastRead; tracking by tracker:
//     the higher lastChapterRead.
func Restore(msgs bp.Messages, local, answer *dynamicpb.Message) {
	restoreCategories(local, answer)
	byKey := map[string]protoreflect.Message{}
	for _, m := range bp.List(local, "backup_manga") {
		byKey[mangaKey(m)] = m
	}
	for _, rm := range bp.List(answer, "backup_manga") {
		lm := byKey[mangaKey(rm)]
		if lm == nil {
			bp.Append(local, "backup_manga", proto.Clone(rm.Interface()).ProtoReflect())
			continue
		}
		if bp.Int(rm, "version") > bp.Int(lm, "version") {
			fav := bp.Bool(lm, "favorite", true) || bp.Bool(rm, "favorite", true)
			rm.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
				switch fd.Name() {
				case "chapters", "history", "tracking", "categories":
				default:
					lm.Set(fd, v)
				}
				return true
			})
			bp.Set(lm, "favorite", fav)
			bp.SetInts(lm, "categories", bp.Ints(rm, "categories"))
		}
		restoreChapters(lm, rm)
		restoreHistory(lm, rm)
		restoreTracking(lm, rm)
	}
}

func restoreCategories(local, answer *dynamicpb.Message) {
	names := map[string]bool{}
	for _, c := range bp.List(answer, "backup_categories") {
		names[bp.String(c, "name")] = true
	}
	fd := bp.Field(local, "backup_categories")
	old := bp.List(local, "backup_categories")
	local.Clear(fd)
	have := map[string]bool{}
	for _, c := range old {
		if names[bp.String(c, "name")] {
			bp.Append(local, "backup_categories", c)
			have[bp.String(c, "name")] = true
		}
	}
	for _, c := range bp.List(answer, "backup_categories") {
		if !have[bp.String(c, "name")] {
			bp.Append(local, "backup_categories", proto.Clone(c.Interface()).ProtoReflect())
		}
	}
}

// chapterIgnored are the fields a known chapter may differ in and still
// count as the same.
var chapterIgnored = map[protoreflect.Name]bool{"date_fetch": true, "date_upload": true, "last_modified_at": true, "version": true}

func restoreChapters(lm, rm protoreflect.Message) {
	byURL := map[string]protoreflect.Message{}
	for _, c := range bp.List(lm, "chapters") {
		byURL[bp.String(c, "url")] = c
	}
	for _, rc := range bp.List(rm, "chapters") {
		lc := byURL[bp.String(rc, "url")]
		if lc == nil {
			bp.Append(lm, "chapters", proto.Clone(rc.Interface()).ProtoReflect())
			continue
		}
		differs := false
		fields := rc.Descriptor().Fields()
		for i := range fields.Len() {
			f := fields.Get(i)
			if !chapterIgnored[f.Name()] && (lc.Has(f) != rc.Has(f) || !lc.Get(f).Equal(rc.Get(f))) {
				differs = true
			}
		}
		if !differs {
			continue
		}
		for _, name := range []string{"read", "last_page_read", "source_order", "version"} {
			f := bp.Field(rc, name)
			if rc.Has(f) {
				lc.Set(f, rc.Get(f))
			} else {
				lc.Clear(f)
			}
		}
		if bp.Bool(rc, "bookmark", false) {
			bp.Set(lc, "bookmark", true)
		}
	}
}

func restoreHistory(lm, rm protoreflect.Message) {
	byURL := map[string]protoreflect.Message{}
	for _, h := range bp.List(lm, "history") {
		byURL[bp.String(h, "url")] = h
	}
	for _, rh := range bp.List(rm, "history") {
		lh := byURL[bp.String(rh, "url")]
		if lh == nil {
			bp.Append(lm, "history", proto.Clone(rh.Interface()).ProtoReflect())
			continue
		}
		if bp.Int(rh, "last_read") > bp.Int(lh, "last_read") {
			bp.Set(lh, "last_read", bp.Int(rh, "last_read"))
		}
	}
}

func restoreTracking(lm, rm protoreflect.Message) {
	bySync := map[int64]protoreflect.Message{}
	for _, t := range bp.List(lm, "tracking") {
		bySync[bp.Int(t, "sync_id")] = t
	}
	for _, rt := range bp.List(rm, "tracking") {
		lt := bySync[bp.Int(rt, "sync_id")]
		if lt == nil {
			bp.Append(lm, "tracking", proto.Clone(rt.Interface()).ProtoReflect())
			continue
		}
		f := bp.Field(rt, "last_chapter_read")
		if rt.Get(f).Float() > lt.Get(f).Float() {
			lt.Set(f, rt.Get(f))
		}
	}
}
