package anilist

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

// TestListFixture: the documented answer reads as one entry per media
// (the custom list's lower copy loses), and the request is the list
// document by user name, with no token.
func TestListFixture(t *testing.T) {
	t.Parallel()
	f, e := serveFixture(t, http.StatusOK, nil, "collection.json")
	got, err := e.client.List(t.Context(), " ReaderOnAniList ")
	if err != nil {
		t.Fatal(err)
	}
	want := trackers.Collection{Entries: []trackers.Entry{
		{MediaID: "30013", Progress: 120, Status: trackers.StatusCurrent},
		{MediaID: "105778", Progress: 59, Status: trackers.StatusCurrent},
		{MediaID: "30002", Progress: 380, Status: trackers.StatusCompleted},
		{MediaID: "87216", Progress: 0, Status: trackers.StatusPlanning},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List =\n%+v\nwant\n%+v", got, want)
	}
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Auth != "" || reqs[0].Body["query"] != listDocument {
		t.Fatalf("request: %+v", reqs)
	}
	if v, _ := reqs[0].Body["variables"].(map[string]any); v["userName"] != "ReaderOnAniList" {
		t.Fatalf("variables: %+v", reqs[0].Body["variables"])
	}
	if e.rec.count(trackers.KindList, trackers.ResultOK) != 1 {
		t.Fatalf("recorded %v", e.rec.seen)
	}
}

// TestListHostileEntries: a count that is not a whole number from 0 to
// MaxProgress, or an id that is not AniList's, refuses that entry (listed
// with its reason) and keeps the rest.
func TestListHostileEntries(t *testing.T) {
	t.Parallel()
	_, e := serveFixture(t, http.StatusOK, nil, "collection_hostile.json")
	got, err := e.client.List(t.Context(), "hostile")
	if err != nil {
		t.Fatal(err)
	}
	wantEntries := []trackers.Entry{
		{MediaID: "30013", Progress: 120, Status: trackers.StatusCurrent},
		{MediaID: "6", Progress: 8, Status: trackers.StatusNone},
		{MediaID: "7", Progress: 0, Status: trackers.StatusNone},
	}
	if !reflect.DeepEqual(got.Entries, wantEntries) {
		t.Fatalf("entries = %+v", got.Entries)
	}
	reasons := map[string]string{}
	for _, r := range got.Refused {
		reasons[r.MediaID] += r.Reason
	}
	for id, want := range map[string]string{
		"1": "negative", "2": "not a whole number", "3": "not a number", "4": "not a whole number",
		"5": "over 100000", `"30002"`: "no usable media id", "99999999999": "no usable media id", "-8": "no usable media id",
	} {
		if !strings.Contains(reasons[id], want) {
			t.Errorf("entry %s: reason %q, want it to say %q", id, reasons[id], want)
		}
	}
	if len(got.Refused) != 10 {
		t.Fatalf("refused %d entries, want 10: %+v", len(got.Refused), got.Refused)
	}
}

// TestListWrongShapes: an answer whose shape above the entries is wrong
// is refused whole with ErrBadAnswer.
func TestListWrongShapes(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"lists a string":     `{"data":{"MediaListCollection":{"lists":"all of them"}}}`,
		"entries a number":   `{"data":{"MediaListCollection":{"lists":[{"entries":5}]}}}`,
		"collection null":    `{"data":{"MediaListCollection":null}}`,
		"data null":          `{"data":null}`,
		"not json":           `<html>maintenance</html>`,
		"empty":              ``,
		"errors on 200":      `{"data":null,"errors":[{"message":"Internal Server Error","status":500}]}`,
		"errors wrong types": `{"data":null,"errors":[{"message":5,"status":"x"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, e := serveFixture(t, http.StatusOK, nil, body)
			_, err := e.client.List(t.Context(), "someone")
			if !errors.Is(err, trackers.ErrBadAnswer) {
				t.Fatalf("List: %v, want ErrBadAnswer", err)
			}
		})
	}
}

// bigList writes a MediaListCollection answer of n entries.
func bigList(n int) string {
	var b strings.Builder
	b.WriteString(`{"data":{"MediaListCollection":{"lists":[{"entries":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"mediaId":%d,"status":"CURRENT","progress":%d}`, i+1, i%500)
	}
	b.WriteString(`]}]}}}`)
	return b.String()
}

// TestListBounds: 10,000 entries read; more than MaxEntries, or a body
// over MaxBody, is ErrAnswerTooLarge and nothing of it is returned.
func TestListBounds(t *testing.T) {
	t.Parallel()
	_, e := serveFixture(t, http.StatusOK, nil, bigList(10_000))
	got, err := e.client.List(t.Context(), "collector")
	if err != nil || len(got.Entries) != 10_000 {
		t.Fatalf("10k entries: %d, %v", len(got.Entries), err)
	}
	_, e = serveFixture(t, http.StatusOK, nil, bigList(trackers.MaxEntries+1))
	got, err = e.client.List(t.Context(), "hoarder")
	if !errors.Is(err, trackers.ErrAnswerTooLarge) || len(got.Entries) != 0 {
		t.Fatalf("%d entries: %d returned, %v", trackers.MaxEntries+1, len(got.Entries), err)
	}
	f := &fixture{status: http.StatusOK, body: []byte(bigList(100))}
	srv := newServer(t, f)
	small := newEnv(t, srv, 1024)
	if _, err := small.client.List(t.Context(), "someone"); !errors.Is(err, trackers.ErrAnswerTooLarge) {
		t.Fatalf("body over MaxBody: %v", err)
	}
	if small.rec.count(trackers.KindList, trackers.ResultTooLarge) != 1 {
		t.Fatalf("recorded %v", small.rec.seen)
	}
}

// TestListNoSuchUser: AniList's 404 for a user name (and the stand-in's)
// is ErrNoSuchUser; so is a name that cannot be one.
func TestListNoSuchUser(t *testing.T) {
	t.Parallel()
	_, e := serveFixture(t, http.StatusNotFound, nil, "no_such_user.json")
	if _, err := e.client.List(t.Context(), "nobody"); !errors.Is(err, trackers.ErrNoSuchUser) {
		t.Fatalf("fixture 404: %v", err)
	}
	if e.rec.count(trackers.KindList, trackers.ResultNoSuchUser) != 1 {
		t.Fatalf("recorded %v", e.rec.seen)
	}
	_, e = serveFixture(t, http.StatusBadRequest, nil, `{"errors":[{"message":"User not found","status":400}],"data":{"MediaListCollection":null}}`)
	if _, err := e.client.List(t.Context(), "nobody"); !errors.Is(err, trackers.ErrNoSuchUser) {
		t.Fatalf("fixture 400 User not found: %v", err)
	}
	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("Somebody", trackers.Entry{MediaID: "1", Progress: 2, Status: trackers.StatusCurrent})
	if _, err := e.client.List(t.Context(), "nobody"); !errors.Is(err, trackers.ErrNoSuchUser) {
		t.Fatalf("stand-in: %v", err)
	}
	if c, err := e.client.List(t.Context(), "somebody"); err != nil || len(c.Entries) != 1 {
		t.Fatalf("stand-in, known user: %+v %v", c, err)
	}
	for _, name := range []string{"", "   ", strings.Repeat("n", 65), "\xff"} {
		if _, err := e.client.List(t.Context(), name); !errors.Is(err, trackers.ErrNoSuchUser) {
			t.Errorf("name %q: %v", name, err)
		}
	}
}

// FuzzParseCollection: no chunk makes the list reader panic, return an
// entry outside the bounds, or return entries with an error.
func FuzzParseCollection(f *testing.F) {
	f.Add([]byte(`{"MediaListCollection":{"lists":[{"entries":[{"mediaId":1,"status":"CURRENT","progress":3}]}]}}`))
	f.Add([]byte(`{"MediaListCollection":{"lists":[{"entries":[{"mediaId":1,"progress":-3.5},7,null]}]}}`))
	f.Add([]byte(`{"MediaListCollection":null}`))
	f.Add([]byte(`{"MediaListCollection":{"hasNextChunk":"yes","lists":[]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		raw, _, err := parseChunk(b)
		if err != nil && len(raw) > 0 {
			t.Fatalf("entries with an error: %v", err)
		}
		c := collect(raw)
		for _, e := range c.Entries {
			if e.Progress < 0 || e.Progress > trackers.MaxProgress || e.MediaID == "" {
				t.Fatalf("entry out of bounds: %+v", e)
			}
		}
	})
}
