package merge_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/backuppb/backuptest"
	"mangabookmark/backend/phonesync/merge"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

var testTokenKey = []byte("0123456789abcdef0123456789abcdef-merge-tests")

type world struct {
	t      *testing.T
	ctx    context.Context
	st     *store.Store
	db     *pgx.Conn
	eng    *merge.Engine
	msgs   bp.Messages
	reader int64
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(context.Background()) })
	c, err := merge.NewCrypt(testTokenKey)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := merge.New(st, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.UpsertReader(ctx, "discord-1", "Ann", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, ctx: ctx, st: st, db: db, eng: eng, msgs: bp.MustLoad(), reader: r.ID}
}

func (w *world) lib(seed uint64, l backuptest.Library) *dynamicpb.Message {
	return backuptest.Build(w.msgs, rand.New(rand.NewPCG(seed, 7)), l)
}

func (w *world) merge(device string, cursor int64, full bool, b protoreflect.Message, deleted ...int64) merge.Answer {
	w.t.Helper()
	if b == nil {
		b = bp.New(w.msgs.Backup)
	}
	a, err := w.eng.Merge(w.ctx, merge.Request{Reader: w.reader, Device: device, Cursor: cursor, Full: full,
		Backup: b, DeletedCategories: deleted})
	if err != nil {
		w.t.Fatal(err)
	}
	return a
}

// union is a library holding a's and b's manga, categories and settings.
func (w *world) union(libs ...protoreflect.Message) *dynamicpb.Message {
	u := bp.New(w.msgs.Backup)
	for _, l := range libs {
		for _, f := range []string{"backup_categories", "backup_manga"} {
			for _, m := range bp.List(l, f) {
				bp.Append(u, f, m)
			}
		}
	}
	return u
}

func noDiff(t *testing.T, what string, want, got protoreflect.Message) {
	t.Helper()
	if d := backuptest.Diff(want, got); len(d) > 0 {
		t.Fatalf("%s: %d differences, first %v", what, len(d), d[:min(len(d), 5)])
	}
}

func mangaURLs(b protoreflect.Message) []string {
	var out []string
	for _, m := range bp.List(b, "backup_manga") {
		out = append(out, bp.String(m, "url"))
	}
	slices.Sort(out)
	return out
}

func chapterOf(b protoreflect.Message, mangaURL, chapterURL string) protoreflect.Message {
	for _, m := range bp.List(b, "backup_manga") {
		if bp.String(m, "url") != mangaURL {
			continue
		}
		for _, c := range bp.List(m, "chapters") {
			if bp.String(c, "url") == chapterURL {
				return c
			}
		}
	}
	return nil
}

func categoryNames(b protoreflect.Message) string {
	var out []string
	for _, c := range bp.List(b, "backup_categories") {
		out = append(out, bp.String(c, "name"))
	}
	return strings.Join(out, ",")
}

type dynamicpbMessage = dynamicpb.Message

func cloneMsg(m protoreflect.Message) protoreflect.Message {
	return proto.Clone(m.Interface()).ProtoReflect()
}

func equal(a, b []string) bool { return slices.Equal(a, b) }

func randFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

func fieldDiffs(want, got protoreflect.Message) []string {
	if proto.Equal(want.Interface(), got.Interface()) {
		return nil
	}
	return []string{fmt.Sprintf("want %v, got %v", want, got)}
}
