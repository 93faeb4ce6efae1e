package mangabaka_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/mangabaka"
	"mangabookmark/backend/trackers/mangabaka/mangabakatest"
)

const token = "mb-ann-secret-0123456789"

func TestListMineReadsTheRecordedPage(t *testing.T) {
	origin, s := serve(t, answer(200, fixture(t, "library.json")))
	c, _, _ := newClient(t, origin, 0)
	coll, err := c.ListMine(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	want := []trackers.Entry{{MediaID: "1000", Progress: 17, Status: trackers.StatusCurrent},
		{MediaID: "1001", Progress: 89, Status: trackers.StatusCurrent},
		{MediaID: "1002", Progress: 200, Status: trackers.StatusCompleted},
		{MediaID: "1003", Progress: 13, Status: trackers.StatusPlanning}}
	if fmt.Sprint(coll.Entries) != fmt.Sprint(want) || len(coll.Refused) != 0 {
		t.Fatalf("entries %v refused %v, want %v", coll.Entries, coll.Refused, want)
	}
	r := s.reqs[0]
	if r.URL.Path != "/v1/my/library" || r.URL.Query().Get("page") != "1" || r.URL.Query().Get("limit") != "100" ||
		r.Header.Get("x-api-key") != token || r.Header.Get("Authorization") != "" {
		t.Fatalf("request %s %s, x-api-key %q", r.Method, r.URL, r.Header.Get("x-api-key"))
	}
}

func TestListMinePagesTheStandIn(t *testing.T) {
	mb := mangabakatest.New(mangabakatest.Config{})
	var es []trackers.Entry
	for i := range 250 {
		es = append(es, trackers.Entry{MediaID: fmt.Sprint(5000 + i), Progress: i % 40, Status: trackers.StatusCurrent})
	}
	mb.AddUser(token, "ann", es...)
	srv := httptest.NewServer(mb)
	t.Cleanup(srv.Close)
	c, _, _ := newClient(t, srv.URL, 0)
	coll, err := c.ListMine(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	if len(coll.Entries) != 250 || coll.Entries[249].MediaID != "5249" || mb.Count(trackers.KindList) != 3 {
		t.Fatalf("%d entries (last %v) in %d pages, want 250 in 3", len(coll.Entries), coll.Entries[len(coll.Entries)-1], mb.Count(trackers.KindList))
	}
}

func TestListMineRefusesHostileEntriesOneByOne(t *testing.T) {
	origin, _ := serve(t, answer(200, fixture(t, "library_hostile.json")))
	c, _, _ := newClient(t, origin, 0)
	coll, err := c.ListMine(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	// 12.5 reads as 12 (whole chapters read); Series.id stands in for a
	// missing series_id; a null count is 0; an unknown state is no status;
	// 2013 twice counts once, at its highest.
	want := []trackers.Entry{{MediaID: "2002", Progress: 12, Status: trackers.StatusCurrent},
		{MediaID: "2010", Progress: 7, Status: trackers.StatusCurrent},
		{MediaID: "2011", Progress: 0},
		{MediaID: "2013", Progress: 9, Status: trackers.StatusRepeating}}
	if fmt.Sprint(coll.Entries) != fmt.Sprint(want) {
		t.Fatalf("entries %v, want %v", coll.Entries, want)
	}
	if len(coll.Refused) != 10 {
		t.Fatalf("%d refused, want 10: %v", len(coll.Refused), coll.Refused)
	}
	for _, r := range coll.Refused {
		if r.Reason == "" || len(r.MediaID) > 32 {
			t.Fatalf("refused without a reason or with a long id: %+v", r)
		}
	}
}

func TestHostileAnswersAreRefusedWhole(t *testing.T) {
	full := func(next string) []byte {
		var b strings.Builder
		b.WriteString(`{"status":200,"data":[`)
		for i := range mangabaka.PageSize {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"series_id":%d,"progress_chapter":1,"state":"reading"}`, 1+i)
		}
		b.WriteString(`],"pagination":{"next":` + next + `}}`)
		return []byte(b.String())
	}
	over := []byte(`{"status":200,"data":[` + strings.Repeat(`{"series_id":1,"progress_chapter":1},`, mangabaka.PageSize) + `{"series_id":2}]}`)
	cases := []struct {
		name string
		h    func(http.ResponseWriter, *http.Request)
		max  int64
		want error
	}{
		{"not json", answer(200, []byte("<html>hi</html>")), 0, trackers.ErrBadAnswer},
		{"data an object", answer(200, []byte(`{"status":200,"data":{"a":1}}`)), 0, trackers.ErrBadAnswer},
		{"data a string", answer(200, []byte(`{"status":200,"data":"[]"}`)), 0, trackers.ErrBadAnswer},
		{"no data", answer(200, []byte(`{"status":200}`)), 0, trackers.ErrBadAnswer},
		{"huge body", answer(200, []byte(`{"status":200,"data":[`+strings.Repeat(" ", 4096)+`]}`)), 1024, trackers.ErrAnswerTooLarge},
		{"a page over limit", answer(200, over), 0, trackers.ErrAnswerTooLarge},
		{"endless pages", answer(200, full(`"/v1/my/library?page=2"`)), 0, trackers.ErrAnswerTooLarge},
		{"a 403", answer(403, []byte(`{"status":403,"message":"Forbidden"}`)), 0, trackers.ErrBadAnswer},
		{"a 502", answer(502, []byte(`oops`)), 0, trackers.ErrUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			origin, s := serve(t, tc.h)
			c, _, _ := newClient(t, origin, tc.max)
			coll, err := c.ListMine(context.Background(), token)
			if !errors.Is(err, tc.want) || len(coll.Entries) != 0 {
				t.Fatalf("err %v, %d entries; want %v and none", err, len(coll.Entries), tc.want)
			}
			if tc.name == "endless pages" && s.count() != mangabaka.MaxPages {
				t.Fatalf("%d pages asked, want %d", s.count(), mangabaka.MaxPages)
			}
		})
	}
}

func TestRefusedTokenAndNoToken(t *testing.T) {
	origin, s := serve(t, answer(401, fixture(t, "unauthorized.json")))
	c, _, rec := newClient(t, origin, 0)
	ctx := context.Background()
	_, err1 := c.ListMine(ctx, token)
	_, err2 := c.Progress(ctx, token, "1000")
	_, err3 := c.Save(ctx, token, "1000", trackers.Write{Progress: 3, Status: trackers.StatusCurrent})
	_, err4 := c.Viewer(ctx, token)
	for i, err := range []error{err1, err2, err3, err4} {
		if !errors.Is(err, trackers.ErrTokenRefused) || strings.Contains(err.Error(), token) {
			t.Fatalf("call %d: %v, want ErrTokenRefused without the token", i, err)
		}
	}
	if rec.get("list/token_refused") != 1 || s.count() != 4 {
		t.Fatalf("counted %v, %d requests", rec.n, s.count())
	}
	// Not a personal access token: refused with no request.
	for _, bad := range []string{"", "abc", "Bearer mb-x", "mb-a\r\nX-Evil: 1", "mb-" + strings.Repeat("a", 600)} {
		if _, err := c.Viewer(ctx, bad); !errors.Is(err, trackers.ErrTokenRefused) {
			t.Fatalf("token %q: %v", bad, err)
		}
	}
	if s.count() != 4 {
		t.Fatalf("%d requests after malformed tokens, want still 4", s.count())
	}
}

func TestProgressAndSave(t *testing.T) {
	mb := mangabakatest.New(mangabakatest.Config{})
	mb.AddUser(token, "ann", trackers.Entry{MediaID: "1000", Progress: 40, Status: trackers.StatusPaused})
	srv := httptest.NewServer(mb)
	t.Cleanup(srv.Close)
	c, _, _ := newClient(t, srv.URL, 0)
	ctx := context.Background()
	r, err := c.Progress(ctx, token, "1000")
	if err != nil || !r.OnList || r.Progress != 40 || r.Status != trackers.StatusPaused {
		t.Fatalf("progress %+v, %v", r, err)
	}
	r, err = c.Progress(ctx, token, "1001")
	if err != nil || r.OnList {
		t.Fatalf("not on the list: %+v, %v", r, err)
	}
	// An update keeps the state the Reader chose; a series not on the
	// list is created (PUT 404, then POST).
	if _, err := c.Save(ctx, token, "1000", trackers.Write{Progress: 41, Status: trackers.StatusPaused}); err != nil {
		t.Fatal(err)
	}
	after, err := c.Save(ctx, token, "1001", trackers.Write{Progress: 7, Status: trackers.StatusCurrent})
	if err != nil || !after.OnList || after.Progress != 7 {
		t.Fatalf("create: %+v, %v", after, err)
	}
	got := fmt.Sprint(mb.Writes())
	want := "[{ann 1000 PUT paused 41} {ann 1001 POST reading 7}]"
	if got != want {
		t.Fatalf("writes %s, want %s", got, want)
	}
	// Beyond MangaBaka's bound, or not a series id: no request at all.
	n := mb.Count(trackers.KindSave)
	if _, err := c.Save(ctx, token, "1000", trackers.Write{Progress: mangabaka.MaxChapter + 1}); !errors.Is(err, trackers.ErrNoSuchMedia) {
		t.Fatalf("over the bound: %v", err)
	}
	for _, id := range []string{"", "0", "12a", "../profile", "1234567890123"} {
		if _, err := c.Save(ctx, token, id, trackers.Write{Progress: 1}); !errors.Is(err, trackers.ErrNoSuchMedia) {
			t.Fatalf("media %q: %v", id, err)
		}
	}
	if mb.Count(trackers.KindSave) != n {
		t.Fatalf("saves sent for refused writes")
	}
}

func TestSaveBodyIsOnlyTheWholeCountAndState(t *testing.T) {
	origin, s := serve(t, answer(200, fixture(t, "updated.json")))
	c, _, _ := newClient(t, origin, 0)
	if _, err := c.Save(context.Background(), token, "1000", trackers.Write{Progress: 59, Status: trackers.StatusCurrent}); err != nil {
		t.Fatal(err)
	}
	if s.reqs[0].Method != http.MethodPut || s.bodies[0] != `{"progress_chapter":59,"state":"reading"}` {
		t.Fatalf("%s %q", s.reqs[0].Method, s.bodies[0])
	}
	// A write MangaBaka answers without data true did not take.
	origin, _ = serve(t, answer(200, []byte(`{"status":200,"data":false}`)))
	c, _, _ = newClient(t, origin, 0)
	if _, err := c.Save(context.Background(), token, "1000", trackers.Write{Progress: 60}); !errors.Is(err, trackers.ErrBadAnswer) {
		t.Fatalf("data false: %v", err)
	}
}

func TestRateLimitWaitsItsRetryAfter(t *testing.T) {
	mb := mangabakatest.New(mangabakatest.Config{})
	mb.AddUser(token, "ann")
	mb.LimitNext(1, 42*time.Second)
	srv := httptest.NewServer(mb)
	t.Cleanup(srv.Close)
	c, clock, _ := newClient(t, srv.URL, 0)
	a, err := c.Viewer(context.Background(), token)
	if err != nil || a.Name != "ann" {
		t.Fatalf("viewer %+v, %v", a, err)
	}
	if clock.Slept() < 42*time.Second {
		t.Fatalf("slept %s, want the 42 s asked", clock.Slept())
	}
	mb.LimitNext(10, time.Second)
	if _, err := c.Viewer(context.Background(), token); !errors.Is(err, trackers.ErrRateLimited) {
		t.Fatalf("still limited: %v", err)
	}
}

func TestViewerReadsTheProfile(t *testing.T) {
	cases := map[string]struct {
		body string
		name string
		err  error
	}{
		"recorded":       {string(fixture(t, "profile.json")), "ann", nil},
		"nickname only":  {`{"status":200,"data":{"id":"u1","preferred_username":null,"nickname":"Ann"}}`, "Ann", nil},
		"id only":        {`{"status":200,"data":{"id":"u1","preferred_username":7,"nickname":["x"]}}`, "7", nil},
		"control chars":  {`{"status":200,"data":{"id":"u1","preferred_username":"a\nb"}}`, "u1", nil},
		"names no one":   {`{"status":200,"data":{"id":null}}`, "", trackers.ErrBadAnswer},
		"data an array":  {`{"status":200,"data":[1]}`, "", trackers.ErrBadAnswer},
		"too long names": {`{"status":200,"data":{"id":"` + strings.Repeat("x", 65) + `"}}`, "", trackers.ErrBadAnswer},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			origin, _ := serve(t, answer(200, []byte(tc.body)))
			c, _, _ := newClient(t, origin, 0)
			a, err := c.Viewer(context.Background(), token)
			if !errors.Is(err, tc.err) || a.Name != tc.name {
				t.Fatalf("account %+v, %v; want %q, %v", a, err, tc.name, tc.err)
			}
		})
	}
}

func TestListByNameIsNotHowMangaBakaIsRead(t *testing.T) {
	origin, s := serve(t, answer(200, fixture(t, "library.json")))
	c, _, _ := newClient(t, origin, 0)
	if _, err := c.List(context.Background(), "ann"); !errors.Is(err, trackers.ErrNoSuchUser) || s.count() != 0 {
		t.Fatalf("list by name: %v, %d requests", err, s.count())
	}
}
