package releasefeed_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/releasefeed"
	"mangabookmark/backend/releasefeed/releasefeedtest"
)

// Every hostile answer the feed can meet ends the read with a clear
// outcome and reason, hints nothing it did not read, writes no Latest
// Chapter, never errors out of RunOnce, and puts the next read off.
func TestHostileAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		hostile func(w http.ResponseWriter, r *http.Request) bool
		outcome string
		wait    time.Duration
	}{
		{"server error", func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "oops", http.StatusInternalServerError)
			return true
		}, releasefeed.OutcomeHTTP, releasefeed.DefaultEvery},
		{"429 asking for an hour", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}, releasefeed.OutcomeHTTP, time.Hour},
		{"429 asking for a week", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Retry-After", "604800")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}, releasefeed.OutcomeHTTP, releasefeed.MaxBackoff},
		{"huge", func(w http.ResponseWriter, r *http.Request) bool {
			_, _ = w.Write([]byte(`{"results": [` + strings.Repeat(" ", releasefeed.MaxBody) + `]}`))
			return true
		}, releasefeed.OutcomeTooLarge, releasefeed.DefaultEvery},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) bool {
			_, _ = w.Write([]byte(`<html>maintenance</html>`))
			return true
		}, releasefeed.OutcomeBadAnswer, releasefeed.DefaultEvery},
		{"results of the wrong type", func(w http.ResponseWriter, r *http.Request) bool {
			_, _ = w.Write([]byte(`{"page": 1, "results": {"record": 1}}`))
			return true
		}, releasefeed.OutcomeBadAnswer, releasefeed.DefaultEvery},
		{"hang-up", func(w http.ResponseWriter, r *http.Request) bool {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return true
		}, releasefeed.OutcomeUnreachable, releasefeed.DefaultEvery},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, releasefeedtest.Row{ID: 1, SeriesID: muA, Chapter: "46"})
			w.follow(t, "mangadex", "md-a", "45", fmt.Sprint(muA))
			before := w.checked(t, "mangadex", "md-a")
			w.mu.SetHostile(c.hostile)
			r := w.run(t)
			if !r.Ran || r.Outcome != c.outcome || r.Wait != c.wait || len(r.Hinted) != 0 {
				t.Fatalf("read %+v, want outcome %s and wait %v", r, c.outcome, c.wait)
			}
			st := w.state(t)
			if st.LastOutcome != c.outcome || st.Failures != 1 || st.LastReason == "" || st.NextAt == nil || !st.NextAt.Equal(t0.Add(c.wait)) {
				t.Fatalf("state %+v", st)
			}
			if !w.checked(t, "mangadex", "md-a").Equal(before) {
				t.Fatal("a failed read hinted")
			}
			// The feed recovers on the next good answer (the Series was
			// read meanwhile, so it is not due by Rest).
			w.mu.SetHostile(nil)
			w.clock.Advance(c.wait)
			if _, _, err := w.st.StampChecked(t.Context(), "mangadex", "md-a", w.clock.Now().Add(-time.Minute)); err != nil {
				t.Fatal(err)
			}
			if r := w.run(t); r.Outcome != releasefeed.OutcomeOK || r.Hinted["mangadex"] != 1 {
				t.Fatalf("after recovery %+v", r)
			}
			if st := w.state(t); st.Failures != 0 || st.LastReason != "" {
				t.Fatalf("state after recovery %+v", st)
			}
		})
	}
}

// Bad paging: a next page that answers page 1 again (or repeats what was
// read) ends the read as bad_paging, and page 1's hints stand.
func TestBadPagingKeepsWhatWasRead(t *testing.T) {
	t.Parallel()
	var rows []releasefeedtest.Row
	for i := 0; i < 25; i++ {
		rows = append(rows, releasefeedtest.Row{ID: int64(100 - i), SeriesID: int64(i + 1), Chapter: "1"})
	}
	rows[3].SeriesID = muA
	for _, mode := range []string{"page number", "same rows"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, rows...)
			w.follow(t, "comix", "cx-a", "0", fmt.Sprint(muA))
			w.mu.SetHostile(func(rw http.ResponseWriter, r *http.Request) bool {
				a := releasefeedtest.Answer(rows, 1, 25, true)
				a["total_hits"] = 100
				if mode == "same rows" {
					delete(a, "page")
				}
				_ = json.NewEncoder(rw).Encode(a)
				return true
			})
			r := w.run(t)
			if r.Outcome != releasefeed.OutcomeBadPaging || r.Pages != 2 || r.Hinted["comix"] != 1 {
				t.Fatalf("read %+v", r)
			}
			if st := w.state(t); st.Failures != 1 || len(st.Seen) != 25 {
				t.Fatalf("state %+v", st)
			}
		})
	}
}

// A run of failures backs off: Every, then doubled, at most MaxBackoff.
func TestFailuresBackOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.mu.SetHostile(func(rw http.ResponseWriter, r *http.Request) bool {
		rw.WriteHeader(http.StatusBadGateway)
		return true
	})
	for i, want := range []time.Duration{10 * time.Minute, 20 * time.Minute, 40 * time.Minute, 80 * time.Minute, 2 * time.Hour, 2 * time.Hour} {
		r := w.run(t)
		if !r.Ran || r.Wait != want {
			t.Fatalf("failure %d: %+v, want a wait of %v", i+1, r, want)
		}
		w.clock.Advance(want)
	}
	if n := len(w.mu.Requests()); n != 6 {
		t.Fatalf("%d requests for six reads", n)
	}
}

// Rows the document does not allow are skipped and counted; the page's
// good rows still hint.
func TestWrongTypedRowsAreSkipped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.follow(t, "comix", "cx-a", "0", fmt.Sprint(muA))
	w.mu.SetHostile(func(rw http.ResponseWriter, r *http.Request) bool {
		_, _ = fmt.Fprintf(rw, `{"page": 1, "per_page": 25, "total_hits": 3, "results": [
			{"record": {"id": 1, "chapter": "5"}, "metadata": {"series": {"series_id": "%d"}}},
			{"record": {"id": [2], "chapter": "5"}, "metadata": {"series": {"series_id": 12}}},
			{"record": {"id": 3, "chapter": "5"}, "metadata": {"series": {"series_id": %d}}}]}`, muB, muA)
		return true
	})
	r := w.run(t)
	if r.Outcome != releasefeed.OutcomeOK || r.Skipped != 2 || r.Releases != 1 || r.Hinted["comix"] != 1 {
		t.Fatalf("read %+v", r)
	}
}

// Two processes: one reads each interval; the other finds it claimed and
// sends nothing.
func TestOneProcessReadsEachInterval(t *testing.T) {
	t.Parallel()
	w := newWorld(t, releasefeedtest.Row{ID: 1, SeriesID: muA, Chapter: "1"})
	other := w.newFeed(t)
	if r := w.run(t); !r.Ran {
		t.Fatalf("first %+v", r)
	}
	r, err := other.RunOnce(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if r.Ran || r.Wait != releasefeed.DefaultEvery {
		t.Fatalf("the other process %+v", r)
	}
	if n := len(w.mu.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
	// A claim a dead process left runs out after Every.
	if _, won, err := w.st.ClaimReleaseFeed(t.Context(), t0.Add(releasefeed.DefaultEvery), time.Minute); err != nil || !won {
		t.Fatalf("claim after the hold: %v %v", won, err)
	}
	if _, won, err := w.st.ClaimReleaseFeed(t.Context(), t0.Add(releasefeed.DefaultEvery+time.Second), time.Minute); err != nil || won {
		t.Fatalf("a second claim within the hold: %v %v", won, err)
	}
}
