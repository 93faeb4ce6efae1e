package backuptest

import (
	"fmt"
	"slices"
	"strconv"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// Entities indexes a Backup's manga, chapters, categories, tracking rows
// and history entries by key (a manga source|url; a chapter its manga and
// url; a category its name; a tracking row its manga and tracker; a
// history entry its manga and chapter url), each as its message with the
// nested lists cleared (they are entities of their own). A manga's
// categories are kept as names, so two libraries that number categories
// differently compare equal.
func Entities(b protoreflect.Message) map[string]protoreflect.Message {
	out := map[string]protoreflect.Message{}
	names := map[int64]string{}
	for _, c := range bp.List(b, "backup_categories") {
		names[bp.Int(c, "order")] = bp.String(c, "name")
		c2 := clone(c)
		bp.Clear(c2, "order")
		bp.Clear(c2, "id")
		out["category "+bp.String(c, "name")] = c2
	}
	for _, m := range bp.List(b, "backup_manga") {
		mk := strconv.FormatInt(bp.Int(m, "source"), 10) + "|" + bp.String(m, "url")
		for _, ch := range bp.List(m, "chapters") {
			out["chapter "+mk+" "+bp.String(ch, "url")] = ch
		}
		for _, t := range bp.List(m, "tracking") {
			out["tracking "+mk+" "+strconv.FormatInt(bp.Int(t, "sync_id"), 10)] = t
		}
		for _, h := range bp.List(m, "history") {
			out["history "+mk+" "+bp.String(h, "url")] = h
		}
		m2 := clone(m)
		for _, f := range []string{"chapters", "tracking", "history", "categories"} {
			bp.Clear(m2, f)
		}
		var cats []string
		for _, o := range bp.Ints(m, "categories") {
			cats = append(cats, names[o])
		}
		slices.Sort(cats)
		out["manga "+mk] = m2
		// The membership is in the key: a manga in other categories is
		// one entity missing and one extra.
		out["manga categories "+mk+" "+fmt.Sprint(cats)] = nil
	}
	return out
}

func clone(m protoreflect.Message) protoreflect.Message {
	return proto.Clone(m.Interface()).ProtoReflect()
}

// Diff lists how got differs from want, entity by entity and field by
// field: what is missing, what is extra, and each field that differs.
func Diff(want, got protoreflect.Message) []string {
	w, g := Entities(want), Entities(got)
	var out []string
	for _, k := range sortedKeys(w) {
		gm, ok := g[k]
		if !ok {
			out = append(out, "missing "+k)
			continue
		}
		out = append(out, fieldDiff(k, w[k], gm)...)
	}
	for _, k := range sortedKeys(g) {
		if _, ok := w[k]; !ok {
			out = append(out, "extra "+k)
		}
	}
	return out
}

// fieldDiff compares two messages field by field (unknown fields too).
func fieldDiff(key string, a, b protoreflect.Message) []string {
	if a == nil || b == nil {
		if (a == nil) != (b == nil) {
			return []string{key + ": one side is empty"}
		}
		return nil
	}
	var out []string
	fields := a.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if a.Has(fd) != b.Has(fd) || !a.Get(fd).Equal(b.Get(fd)) {
			out = append(out, fmt.Sprintf("%s: %s %v != %v", key, fd.Name(), a.Get(fd), b.Get(fd)))
		}
	}
	if string(a.GetUnknown()) != string(b.GetUnknown()) {
		out = append(out, key+": unknown fields differ")
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
