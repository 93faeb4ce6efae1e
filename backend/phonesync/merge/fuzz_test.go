package merge_test

import (
	"testing"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/merge"
)

// FuzzSplitRender feeds a phone's upload (any bytes) through the decode,
// Split and Render: nothing panics, and a rendered library splits into
// the same items again (the merge's view of a library is stable).
func FuzzSplitRender(f *testing.F) {
	msgs := bp.MustLoad()
	for seed := range uint64(3) {
		lib := backuptest.Build(msgs, randFor(seed), backuptest.Library{Manga: 2, Chapters: 2, Categories: 2, Prefix: "f"})
		b, err := bp.Marshal(lib)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := bp.Unmarshal(msgs.Backup, data)
		if err != nil {
			return
		}
		items, err := merge.Split(b)
		if err != nil {
			return
		}
		out, err := merge.Render(msgs, items)
		if err != nil {
			t.Fatalf("render of split items: %v", err)
		}
		again, err := merge.Split(out)
		if err != nil {
			t.Fatalf("split of a render: %v", err)
		}
		if kinds(items) != kinds(again) {
			t.Fatalf("items %v, after a render %v", kinds(items), kinds(again))
		}
	})
}

// kinds counts items by kind, chapters of manga not in items left out
// (Render drops them), categories left out too (Render keeps one per
// order value).
func kinds(items []*merge.Item) [10]int {
	var n [10]int
	manga := map[string]bool{}
	for _, it := range items {
		if it.Kind == merge.KindManga {
			manga[it.Key] = true
		}
	}
	for _, it := range items {
		if it.Kind == merge.KindCategory || (it.Kind == merge.KindChapter && !manga[it.Parent]) {
			continue
		}
		n[it.Kind]++
	}
	return n
}
