package anilist

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
)

// TestRateLimitWaitsRetryAfter: a 429 holds the limiter for its
// Retry-After, then the same request is asked again and answers.
func TestRateLimitWaitsRetryAfter(t *testing.T) {
	t.Parallel()
	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("reader", trackers.Entry{MediaID: "1", Progress: 4, Status: trackers.StatusCurrent})
	s.RateLimit(1, 30*time.Second)
	type result struct {
		c   trackers.Collection
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := e.client.List(t.Context(), "reader")
		done <- result{c, err}
	}()
	mustSleep(t, e.clock, done)
	e.clock.Advance(29 * time.Second)
	select {
	case r := <-done:
		t.Fatalf("answered before Retry-After passed: %+v", r)
	default:
	}
	e.clock.Advance(time.Second)
	r := <-done
	if r.err != nil || len(r.c.Entries) != 1 {
		t.Fatalf("after the wait: %+v", r)
	}
	if n := s.Requests(trackers.KindList); n != 2 {
		t.Fatalf("%d list requests, want 2 (the 429 and the retry)", n)
	}
	if e.rec.count(trackers.KindList, trackers.ResultRateLimited) != 1 || e.rec.count(trackers.KindList, trackers.ResultOK) != 1 {
		t.Fatalf("recorded %v", e.rec.seen)
	}
}

// TestRateLimitHeaders: without Retry-After a 429 waits for
// X-RateLimit-Reset, then AniList's minute; a Retry-After over ten
// minutes waits ten; after two retries the call gives up with
// ErrRateLimited.
func TestRateLimitHeaders(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"reset then a minute", map[string]string{"X-RateLimit-Reset": strconv.FormatInt(t0.Add(45*time.Second).Unix(), 10), "X-RateLimit-Remaining": "0"}, 45*time.Second + time.Minute},
		{"no headers: a minute each", nil, 2 * time.Minute},
		{"huge Retry-After", map[string]string{"Retry-After": "99999999"}, 20 * time.Minute},
		{"garbage Retry-After", map[string]string{"Retry-After": "soon"}, 2 * time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, e := serveFixture(t, http.StatusTooManyRequests, tc.header, "rate_limited.json")
			e.clock.SetActors(1)
			_, err := e.client.List(t.Context(), "reader")
			if !errors.Is(err, trackers.ErrRateLimited) {
				t.Fatalf("List: %v, want ErrRateLimited", err)
			}
			if got := e.clock.Now().Sub(t0); got != tc.want {
				t.Fatalf("waited %s, want %s", got, tc.want)
			}
			if n := len(f.requests()); n != 1+trackers.MaxRetries {
				t.Fatalf("%d requests, want %d", n, 1+trackers.MaxRetries)
			}
		})
	}
}

// TestRemainingZeroHolds: an answer whose X-RateLimit-Remaining is 0
// holds the next request until X-RateLimit-Reset.
func TestRemainingZeroHolds(t *testing.T) {
	t.Parallel()
	reset := strconv.FormatInt(t0.Add(20*time.Second).Unix(), 10)
	_, e := serveFixture(t, http.StatusOK, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}, "collection.json")
	e.clock.SetActors(1)
	if _, err := e.client.List(t.Context(), "reader"); err != nil || e.clock.Now() != t0 {
		t.Fatalf("first request: %v at %s", err, e.clock.Now())
	}
	if _, err := e.client.List(t.Context(), "reader"); err != nil {
		t.Fatal(err)
	}
	if got := e.clock.Now().Sub(t0); got != 20*time.Second {
		t.Fatalf("second request waited %s, want 20s", got)
	}
}

// TestPushThroughStandIn: a push writes the whole number (59.5 → 59;
// PLANNING becomes CURRENT); a remote raised elsewhere is never lowered; a
// media not on the list joins it only when the Reader named it; a refused token stops the push with
// ErrTokenRefused. (The outbox that makes a minute of reads one push is
// trackersync's, tested there.)
func TestPushThroughStandIn(t *testing.T) {
	t.Parallel()
	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("reader", trackers.Entry{MediaID: "30002", Progress: 0, Status: trackers.StatusPlanning})
	s.AddToken(secretToken, "reader")
	p, err := trackers.PushOne(t.Context(), e.client, secretToken, "30002", 59.5, false)
	if err != nil || !p.Wrote || p.After != (trackers.Remote{OnList: true, Progress: 59, Status: trackers.StatusCurrent}) {
		t.Fatalf("push: %+v, %v", p, err)
	}
	if got, _ := s.Entry("reader", "30002"); got.Progress != 59 || got.Status != trackers.StatusCurrent {
		t.Fatalf("remote after push: %+v", got)
	}
	if n := s.Requests(trackers.KindSave); n != 1 {
		t.Fatalf("%d writes for one push", n)
	}

	s.SetEntry("reader", trackers.Entry{MediaID: "30002", Progress: 80, Status: trackers.StatusCurrent})
	p, err = trackers.PushOne(t.Context(), e.client, secretToken, "30002", 70, false)
	if err != nil || p.Wrote {
		t.Fatalf("push under the remote: %+v, %v", p, err)
	}
	if got, _ := s.Entry("reader", "30002"); got.Progress != 80 || s.Requests(trackers.KindSave) != 1 {
		t.Fatalf("the remote was lowered: %+v", got)
	}

	if p, err := trackers.PushOne(t.Context(), e.client, secretToken, "556", 3, false); err != nil || p.Wrote || p.Before.OnList {
		t.Fatalf("push of a media not on the list, not the Reader's own: %+v, %v", p, err)
	}
	if _, ok := s.Entry("reader", "556"); ok {
		t.Fatal("a media the Reader never named joined their list")
	}
	if p, err := trackers.PushOne(t.Context(), e.client, secretToken, "555", 3, true); err != nil || !p.Wrote || p.Before.OnList {
		t.Fatalf("push of a media not on the list: %+v, %v", p, err)
	}
	if got, ok := s.Entry("reader", "555"); !ok || got.Progress != 3 || got.Status != trackers.StatusCurrent {
		t.Fatalf("joined entry: %+v %v", got, ok)
	}

	s.Expire(secretToken)
	if _, err := trackers.PushOne(t.Context(), e.client, secretToken, "30002", 90, false); !errors.Is(err, trackers.ErrTokenRefused) {
		t.Fatalf("expired token: %v", err)
	}
}

// TestTokenNeverInErrorsOrLogs: whatever AniList answers, and when it
// cannot be reached, no error text or log line quotes the token.
func TestTokenNeverInErrorsOrLogs(t *testing.T) {
	t.Parallel()
	answers := []struct {
		status int
		header map[string]string
		body   string
	}{
		{http.StatusBadRequest, nil, "invalid_token.json"},
		{http.StatusUnauthorized, nil, `{"errors":[{"message":"Unauthorized. ` + secretToken + `"}]}`},
		{http.StatusTooManyRequests, map[string]string{"Retry-After": "1"}, "rate_limited.json"},
		{http.StatusInternalServerError, nil, secretToken},
		{http.StatusOK, nil, `{"data":{"Viewer":"` + secretToken + `"}}`},
		{http.StatusOK, nil, `not json ` + secretToken},
		{http.StatusTeapot, nil, `{"errors":[{"message":"Bearer ` + secretToken + `"}]}`},
		{http.StatusOK, nil, strings.Repeat("x", DefaultMaxBody+1)},
	}
	for i, a := range answers {
		_, e := serveFixture(t, a.status, a.header, a.body)
		e.clock.SetActors(1)
		_, err1 := e.client.Viewer(t.Context(), secretToken)
		_, err2 := e.client.Save(t.Context(), secretToken, "1", trackers.Write{Progress: 1, Status: trackers.StatusCurrent})
		for _, err := range []error{err1, err2} {
			if err == nil {
				t.Fatalf("answer %d: no error", i)
			}
			if strings.Contains(err.Error(), "sekrit") {
				t.Fatalf("answer %d: error quotes the token: %v", i, err)
			}
		}
		if strings.Contains(e.logBuf.String(), "sekrit") {
			t.Fatalf("answer %d: the log quotes the token: %s", i, e.logBuf.String())
		}
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	e := newEnv(t, srv.URL, 0)
	srv.Close()
	if _, err := e.client.Viewer(t.Context(), secretToken); !errors.Is(err, trackers.ErrUnavailable) || strings.Contains(err.Error(), "sekrit") {
		t.Fatalf("unreachable: %v", err)
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]Config{
		"origin with path":  {Origin: "http://127.0.0.1:9100/graphql"},
		"origin not http":   {Origin: "ftp://127.0.0.1"},
		"negative MaxBody":  {MaxBody: -1},
		"MaxBody too large": {MaxBody: 64<<20 + 1},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	c, err := New(Config{})
	if err != nil || c.apiURL != DefaultAPIURL || c.siteURL != DefaultSiteURL || c.caller.MaxBody != DefaultMaxBody {
		t.Fatalf("defaults: %+v %v", c, err)
	}
}

// TestPullThroughStandIn: a list read by user name, planned, moves the
// linked bookmarks forward only and lists the unmatched entries; an
// unknown user is ErrNoSuchUser.
func TestPullThroughStandIn(t *testing.T) {
	t.Parallel()
	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("Reader",
		trackers.Entry{MediaID: "30013", Progress: 120, Status: trackers.StatusCurrent},
		trackers.Entry{MediaID: "30002", Progress: 10, Status: trackers.StatusPaused},
		trackers.Entry{MediaID: "87216", Progress: 4, Status: trackers.StatusCurrent})
	marks := []trackers.Bookmark{
		{Site: "mangadex", SeriesID: "a", MediaID: "30013", Progress: 100.5},
		{Site: "comix", SeriesID: "b", MediaID: "30002", Progress: 50},
	}
	coll, err := e.client.List(t.Context(), "reader")
	if err != nil {
		t.Fatal(err)
	}
	got := struct{ Plan trackers.PullPlan }{trackers.PlanPull(coll.Entries, marks)}
	if len(got.Plan.Moves) != 1 || got.Plan.Moves[0] != (trackers.Move{Site: "mangadex", SeriesID: "a", MediaID: "30013", From: 100.5, To: 120}) {
		t.Fatalf("moves: %+v", got.Plan.Moves)
	}
	if len(got.Plan.Unmatched) != 1 || got.Plan.Unmatched[0].MediaID != "87216" {
		t.Fatalf("unmatched: %+v", got.Plan.Unmatched)
	}
	if s.Requests(trackers.KindList) != 1 {
		t.Fatal("not one list request")
	}
	if c, err := e.client.List(t.Context(), "nobody"); !errors.Is(err, trackers.ErrNoSuchUser) || len(c.Entries) != 0 {
		t.Fatalf("unknown user: %+v, %v", c, err)
	}
}

// TestStatusBothWaysThroughStandIn: the stand-in's list answers each
// entry's status, which reads as a reading state; a push of a state set by
// hand writes its status and never lowers the count.
func TestStatusBothWaysThroughStandIn(t *testing.T) {
	t.Parallel()
	s, e := standIn(t, anilisttest.Config{})
	s.AddUser("reader", trackers.Entry{MediaID: "30002", Progress: 40, Status: trackers.StatusPaused},
		trackers.Entry{MediaID: "30003", Progress: 2, Status: trackers.StatusRepeating})
	s.AddToken(secretToken, "reader")
	coll, err := e.client.List(t.Context(), "reader")
	if err != nil || len(coll.Entries) != 2 {
		t.Fatalf("list: %+v, %v", coll, err)
	}
	got := map[string]string{}
	for _, en := range coll.Entries {
		got[en.MediaID] = trackers.StateOf(en.Status)
	}
	if got["30002"] != "on_hold" || got["30003"] != "rereading" {
		t.Fatalf("states read %v", got)
	}
	p, err := trackers.PushOneAs(t.Context(), e.client, secretToken, "30002", 12, false, trackers.StatusOf("dropped"))
	if err != nil || !p.Wrote {
		t.Fatalf("push: %+v, %v", p, err)
	}
	if en, _ := s.Entry("reader", "30002"); en.Progress != 40 || en.Status != trackers.StatusDropped {
		t.Fatalf("remote after the push: %+v, want 40 DROPPED", en)
	}
}
