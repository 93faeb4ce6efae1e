package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// hostileProblems is n unsupported items of 300 three-byte characters
// each, the shape of issue 33's I2 (random CJK lines).
func hostileProblems(n int) []store.ImportProblem {
	out := make([]store.ImportProblem, n)
	for i := range out {
		out[i] = store.ImportProblem{Item: fmt.Sprintf("%d", i) + strings.Repeat("漫", 300), Reason: strings.Repeat("理", 300)}
	}
	return out
}

// A job keeps the first MaxStoredProblems of its unsupported items, each
// bounded in bytes, and counts all of them; the listing reads none.
func TestImportKeepsTheFirstProblemsAndCountsTheRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	r, err := st.UpsertReader(ctx, "900000000000000001", "Bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	j := store.ImportJob{ReaderID: r.ID, Kind: "urls", State: store.ImportDone, Total: 10000,
		Unsupported: hostileProblems(10000), CreatedAt: time.Now()}
	if err := st.CreateImport(ctx, &j); err != nil {
		t.Fatal(err)
	}
	var stored int
	if err := st.Pool().QueryRow(ctx, `SELECT pg_column_size(unsupported) FROM import_jobs WHERE id = $1`, j.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored > 64<<10 {
		t.Errorf("unsupported holds %d bytes in the row, want at most 64 KiB", stored)
	}
	got, err := st.GetImport(ctx, r.ID, j.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.UnsupportedCount != 10000 || len(got.Unsupported) != store.MaxStoredProblems {
		t.Fatalf("count %d, kept %d; want 10000 and %d", got.UnsupportedCount, len(got.Unsupported), store.MaxStoredProblems)
	}
	for _, p := range got.Unsupported {
		if len(p.Item) > 512 || len(p.Reason) > 512 {
			t.Fatalf("an item of %d bytes and a reason of %d kept, want at most 512 each", len(p.Item), len(p.Reason))
		}
	}
	if !strings.HasPrefix(got.Unsupported[49].Item, "49") {
		t.Errorf("the 50th kept item is %.10q, want the file's 50th", got.Unsupported[49].Item)
	}

	// One more over the cap (as the service adds a Series past the
	// bookmark limit) is counted, not kept, and the count survives a save.
	got.AddProblem(store.ImportProblem{Item: "one more", Reason: "over the limit"})
	if err := st.SaveImport(ctx, &got); err != nil {
		t.Fatal(err)
	}
	list, err := st.ListImports(ctx, r.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	if list[0].UnsupportedCount != 10001 || list[0].Unsupported != nil {
		t.Errorf("listed: count %d with %d items, want 10001 and none loaded", list[0].UnsupportedCount, len(list[0].Unsupported))
	}
}

// A Reader keeps the newest MaxImportsKept imports: recording one more
// deletes the oldest finished ones, never an unfinished one, and a Reader
// with MaxImportsKept unfinished imports is refused a new one, nothing
// written.
func TestImportsArePrunedPerReader(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := dbtest.New(t)
	bob, err := st.UpsertReader(ctx, "900000000000000002", "Bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	ann, err := st.UpsertReader(ctx, "900000000000000003", "Ann", nil)
	if err != nil {
		t.Fatal(err)
	}
	record := func(reader int64, state string) (store.ImportJob, error) {
		j := store.ImportJob{ReaderID: reader, Kind: "urls", State: state, CreatedAt: time.Now()}
		err := st.CreateImport(ctx, &j)
		return j, err
	}
	annJob, err := record(ann.ID, store.ImportDone)
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := record(bob.ID, store.ImportWaiting)
	if err != nil {
		t.Fatal(err)
	}
	var last store.ImportJob
	for i := 0; i < store.MaxImportsKept+5; i++ {
		if last, err = record(bob.ID, store.ImportDone); err != nil {
			t.Fatal(err)
		}
	}
	count := func(reader int64) int {
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM import_jobs WHERE reader_id = $1`, reader).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The 20 newest, and the older one still waiting.
	if n := count(bob.ID); n != store.MaxImportsKept+1 {
		t.Errorf("Bob keeps %d imports, want %d (the newest %d and the waiting one)", n, store.MaxImportsKept+1, store.MaxImportsKept)
	}
	if _, err := st.GetImport(ctx, bob.ID, waiting.ID, false); err != nil {
		t.Errorf("the waiting import: %v, want it kept", err)
	}
	if _, err := st.GetImport(ctx, bob.ID, last.ID, false); err != nil {
		t.Errorf("the newest import: %v", err)
	}
	if _, err := st.GetImport(ctx, ann.ID, annJob.ID, false); err != nil {
		t.Errorf("Ann's import: %v, want it untouched by Bob's", err)
	}

	for i := 1; i < store.MaxImportsKept; i++ {
		if _, err := record(bob.ID, store.ImportRunning); err != nil {
			t.Fatal(err)
		}
	}
	before := count(bob.ID)
	if _, err := record(bob.ID, store.ImportRunning); !errors.Is(err, store.ErrTooManyImports) {
		t.Fatalf("the import past %d unfinished: %v, want ErrTooManyImports", store.MaxImportsKept, err)
	}
	if n := count(bob.ID); n != before {
		t.Errorf("the refused import changed Bob's rows: %d, was %d", n, before)
	}
}
