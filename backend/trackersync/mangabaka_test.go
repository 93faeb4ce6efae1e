package trackersync_test

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/mangabaka"
	"mangabookmark/backend/trackers/mangabaka/mangabakatest"
	"mangabookmark/backend/trackersync"
)

// The MangaBaka tracker through the same outbox and rules as AniList's:
// its library read and written with the Reader's personal access token,
// its media ids the Series' `mb` ids. The stand-in answers in the shapes
// of MangaBaka's published OpenAPI document (mangabakatest).

const (
	annPAT = "mb-ann-pat-0123456789abcdef"
	bobPAT = "mb-bob-pat-0123456789abcdef"
)

// mbWorld is the world with a MangaBaka stand-in and its Service.
type mbWorld struct {
	*world
	mb  *mangabakatest.Server
	svc *trackersync.Service
}

func newMBWorld(t *testing.T) *mbWorld {
	t.Helper()
	mb := mangabakatest.New(mangabakatest.Config{})
	w := newMBWorldOn(t, mb)
	w.mb = mb
	return w
}

// newMBWorldOn is the world with h answering as MangaBaka.
func newMBWorldOn(t *testing.T, h http.Handler) *mbWorld {
	t.Helper()
	w := newWorld(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	limit, err := trackers.NewLimiter(trackers.LimiterConfig{PerMinute: mangabaka.DefaultPerMinute, Clock: w.clock})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client, err := mangabaka.New(mangabaka.Config{Origin: srv.URL, Limiter: limit, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := trackers.NewSealer(tokenKey)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: client, Sealer: sealer, Log: log, Now: w.clock.Now, Owner: "mb1"})
	if err != nil {
		t.Fatal(err)
	}
	return &mbWorld{world: w, svc: svc}
}

// mbSeries makes a Series whose Site gives it the MangaBaka id mb.
func (w *mbWorld) mbSeries(site, id, latest, mb string) {
	w.t.Helper()
	w.series(site, id, latest, "")
	if mb != "" {
		if _, err := w.st.AddSeriesIDs(w.ctx, []store.SeriesIDs{{Site: site, SeriesID: id,
			IDs: []store.ExternalID{{Kind: "mb", Value: mb, Source: store.IDFromSite}}}}); err != nil {
			w.t.Fatal(err)
		}
	}
}

// ownMB names a MangaBaka id on a Series as one Reader's word.
func (w *mbWorld) ownMB(reader int64, site, id, mb string) {
	w.t.Helper()
	if _, err := w.st.Pool().Exec(w.ctx, `INSERT INTO series_ids (site, series_id, kind, value, source, reader_id)
		VALUES ($1, $2, 'mb', $3, 'reader', $4)`, site, id, mb, reader); err != nil {
		w.t.Fatal(err)
	}
}

// connect pastes the Reader's token: pull and push turn on.
func (w *mbWorld) connect(reader int64, pat string) {
	w.t.Helper()
	if err := w.svc.SetToken(w.ctx, reader, mangabaka.Name, pat); err != nil {
		w.t.Fatalf("set token: %v", err)
	}
}

func (w *mbWorld) mbAccount(reader int64) store.TrackerAccount {
	w.t.Helper()
	a, err := w.st.TrackerAccount(w.ctx, reader, mangabaka.Name)
	if err != nil {
		w.t.Fatalf("tracker account: %v", err)
	}
	return a
}

func mbEntry(media string, n int, st trackers.Status) trackers.Entry {
	return trackers.Entry{MediaID: media, Progress: n, Status: st}
}

func TestMangaBakaTokenConnectsAndRefusals(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mb.AddUser(annPAT, "ann-baka")
	var ref *trackersync.Refusal
	// Pull or push before a token: refused with the reason.
	if err := w.svc.Save(w.ctx, ann, mangabaka.Name, "", true, false); !errors.As(err, &ref) {
		t.Fatalf("pull without a token: %v", err)
	}
	// Not a personal access token, or one MangaBaka refuses: refused; the
	// first is never sent.
	if err := w.svc.SetToken(w.ctx, ann, mangabaka.Name, "eyJhbGciOi.not-a-pat"); !errors.As(err, &ref) || w.mb.Count(trackers.KindViewer) != 0 {
		t.Fatalf("not a PAT: %v, %d profile reads", err, w.mb.Count(trackers.KindViewer))
	}
	if err := w.svc.SetToken(w.ctx, ann, mangabaka.Name, "mb-unknown-token"); !errors.As(err, &ref) || w.mb.Count(trackers.KindViewer) != 1 {
		t.Fatalf("refused PAT: %v", err)
	}
	w.connect(ann, annPAT)
	a := w.mbAccount(ann)
	if a.Username != "ann-baka" || !a.Pull || !a.Push || !a.Connected() || a.State != store.TrackerOK || a.NextPullAt == nil {
		t.Fatalf("after the first token: %+v", a)
	}
	// The switches are the Reader's from then on; the name stays the
	// token's whatever a PUT sends.
	if err := w.svc.Save(w.ctx, ann, mangabaka.Name, "someone-else", false, true); err != nil {
		t.Fatal(err)
	}
	if a := w.mbAccount(ann); a.Username != "ann-baka" || a.Pull || !a.Push {
		t.Fatalf("after PUT pull off: %+v", a)
	}
	// A token of another account is refused while one is connected.
	w.mb.AddUser(bobPAT, "bob-baka")
	if err := w.svc.SetToken(w.ctx, ann, mangabaka.Name, bobPAT); !errors.As(err, &ref) {
		t.Fatalf("another account's token: %v", err)
	}
	if err := w.svc.Forget(w.ctx, ann, mangabaka.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.TrackerAccount(w.ctx, ann, mangabaka.Name); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after forget: %v", err)
	}
	if got := w.logs.String(); strings.Contains(got, annPAT) || strings.Contains(got, bobPAT) {
		t.Fatal("a token was logged")
	}
}

func TestMangaBakaPullMovesProgressForwardOnly(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mbSeries("mangadex", "a", "20", "1000")
	w.mbSeries("mangapill", "b", "60", "1001")
	w.mbSeries("comix", "c", "", "1002")
	w.bookmark(ann, "mangadex", "a", "10")
	w.bookmark(ann, "mangapill", "b", "50")
	w.bookmark(ann, "comix", "c", "")
	w.mb.AddUser(annPAT, "ann", mbEntry("1000", 17, trackers.StatusCurrent), mbEntry("1001", 40, trackers.StatusCurrent),
		mbEntry("1002", 13, trackers.StatusPlanning), mbEntry("9999", 5, trackers.StatusCurrent))
	w.connect(ann, annPAT)
	if pulled, moved := w.pull(w.svc); pulled != 1 || moved != 2 {
		t.Fatalf("pulled %d, moved %d; want 1 and 2", pulled, moved)
	}
	for _, c := range []struct{ site, id, want, source string }{
		{"mangadex", "a", "17", "mangabaka"}, {"mangapill", "b", "50", "reader"}, {"comix", "c", "13", "mangabaka"},
	} {
		if n, src := w.progress(ann, c.site, c.id); n != c.want || src != c.source {
			t.Fatalf("%s/%s: Progress %s (%s), want %s (%s)", c.site, c.id, n, src, c.want, c.source)
		}
	}
	um, err := w.svc.Unmatched(w.ctx, ann, mangabaka.Name)
	if err != nil || len(um) != 1 || um[0].MediaID != "9999" {
		t.Fatalf("unmatched %v, %v", um, err)
	}
	var n int
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT count(*) FROM bookmarks WHERE reader_id = $1`, ann).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d bookmarks, want 3 (a pull creates none)", n)
	}
	// A lower count on MangaBaka later never lowers Progress.
	w.mb.SetEntry(annPAT, mbEntry("1000", 2, trackers.StatusCurrent))
	if err := w.svc.PullNow(w.ctx, ann, mangabaka.Name); err != nil {
		t.Fatal(err)
	}
	w.pull(w.svc)
	if n, _ := w.progress(ann, "mangadex", "a"); n != "17" {
		t.Fatalf("Progress %s after a lower remote, want 17", n)
	}
}

func TestMangaBakaPushWritesTheWholeNumberAndNeverLowers(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mbSeries("mangadex", "a", "", "1000")
	w.bookmark(ann, "mangadex", "a", "")
	w.mb.AddUser(annPAT, "ann", mbEntry("1000", 17, trackers.StatusPlanning))
	w.connect(ann, annPAT)
	w.pull(w.svc) // remembers MangaBaka's 17 and moves Progress to it
	w.read(ann, "mangadex", "a", "25.5")
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	w.push(w.svc) // the outbox sees the read
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	if got := w.push(w.svc); got != 1 {
		t.Fatalf("pushed %d, want 1", got)
	}
	e, _ := w.mb.Entry(annPAT, "1000")
	if e.Progress != 25 || e.Status != trackers.StatusCurrent {
		t.Fatalf("remote %+v, want 25 (the whole of 25.5), reading (was plan_to_read)", e)
	}
	// Ann reads 30 here, but MangaBaka already says 40 (read elsewhere):
	// the push reads it and writes nothing.
	w.mb.SetEntry(annPAT, mbEntry("1000", 40, trackers.StatusPaused))
	w.read(ann, "mangadex", "a", "30")
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	w.push(w.svc)
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	w.push(w.svc)
	if e, _ := w.mb.Entry(annPAT, "1000"); e.Progress != 40 || e.Status != trackers.StatusPaused {
		t.Fatalf("remote %+v, want 40 paused untouched", e)
	}
	if got := fmt.Sprint(w.mb.Writes()); got != "[{ann 1000 PUT reading 25}]" {
		t.Fatalf("writes %s", got)
	}
}

func TestMangaBakaRefusedTokenTurnsReconnect(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mbSeries("mangadex", "a", "", "1000")
	w.bookmark(ann, "mangadex", "a", "")
	w.mb.AddUser(annPAT, "ann", mbEntry("1000", 5, trackers.StatusCurrent))
	w.connect(ann, annPAT)
	w.pull(w.svc)
	w.read(ann, "mangadex", "a", "9")
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	w.push(w.svc)
	w.mb.Refuse(annPAT) // revoked on MangaBaka
	w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
	if got := w.push(w.svc); got != 0 {
		t.Fatalf("pushed %d with a refused token", got)
	}
	a := w.mbAccount(ann)
	if a.State != store.TrackerReconnect || a.Connected() {
		t.Fatalf("after a refused push: %+v", a)
	}
	// Pushes stop: more reads send nothing.
	saves := w.mb.Count(trackers.KindSave) + w.mb.Count(trackers.KindProgress)
	w.read(ann, "mangadex", "a", "12")
	for range 3 {
		w.clock.Advance(5 * time.Minute)
		w.push(w.svc)
	}
	if w.mb.Count(trackers.KindSave)+w.mb.Count(trackers.KindProgress) != saves {
		t.Fatal("a push went out after the token was refused")
	}
	// The pull stops too (it reads with the token), without a request.
	lists := w.mb.Count(trackers.KindList)
	if err := w.svc.PullNow(w.ctx, ann, mangabaka.Name); err != nil {
		t.Fatal(err)
	}
	w.pull(w.svc)
	if w.mb.Count(trackers.KindList) != lists || w.mbAccount(ann).State != store.TrackerReconnect {
		t.Fatalf("a pull with a refused token: %d list reads, state %s", w.mb.Count(trackers.KindList)-lists, w.mbAccount(ann).State)
	}
	// A new token connects again, keeping the switches.
	w.mb.AddUser("mb-ann-new-0123456789", "ann")
	w.connect(ann, "mb-ann-new-0123456789")
	if a := w.mbAccount(ann); a.State != store.TrackerOK || !a.Connected() || !a.Pull || !a.Push {
		t.Fatalf("after a new token: %+v", a)
	}
}

func TestMangaBakaRefusedTokenOnPullTurnsReconnect(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mb.AddUser(annPAT, "ann")
	w.connect(ann, annPAT)
	w.mb.Refuse(annPAT)
	w.pull(w.svc)
	if a := w.mbAccount(ann); a.State != store.TrackerReconnect || a.Error == "" {
		t.Fatalf("after a refused pull: %+v", a)
	}
}

// TestMangaBakaBobsIDsNeverMakeAnnsPush is whose word for MangaBaka: Bob
// names mb ids on Series Ann reads; her pull moves nothing by them and her
// pushes write nothing to them. The control: her own id moves and writes.
func TestMangaBakaBobsIDsNeverMakeAnnsPush(t *testing.T) {
	for _, whose := range []string{"bob", "ann"} {
		t.Run(whose, func(t *testing.T) {
			w := newMBWorld(t)
			ann, bob := w.reader("ann"), w.reader("bob")
			w.mbSeries("mangapill", "15", "150", "")
			w.mbSeries("mangapill", "16", "150", "")
			w.bookmark(ann, "mangapill", "15", "150")
			w.bookmark(ann, "mangapill", "16", "10")
			w.bookmark(bob, "mangapill", "15", "")
			w.bookmark(bob, "mangapill", "16", "")
			namer := map[string]int64{"bob": bob, "ann": ann}[whose]
			w.ownMB(namer, "mangapill", "15", "3013") // on Ann's list at 1100
			w.ownMB(namer, "mangapill", "16", "3016") // not on her list
			w.mb.AddUser(annPAT, "ann", mbEntry("3013", 1100, trackers.StatusCurrent))
			w.connect(ann, annPAT)
			w.pull(w.svc)
			w.read(ann, "mangapill", "16", "12")
			for range 3 {
				w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
				w.push(w.svc)
			}
			got, _ := w.progress(ann, "mangapill", "15")
			writes := fmt.Sprint(w.mb.Writes())
			want := map[string][2]string{"bob": {"150", "[]"}, "ann": {"1100", "[{ann 3016 POST reading 12}]"}}[whose]
			if got != want[0] || writes != want[1] {
				t.Fatalf("ids named by %s: Ann's Progress %s, writes %s; want %s and %s", whose, got, writes, want[0], want[1])
			}
		})
	}
}

// TestMangaBakaPushOnlyToMediaThePullSaw: a Site's mb id not on Ann's
// library is not added by a push (only raised where her pull saw it).
func TestMangaBakaPushOnlyToMediaThePullSaw(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mbSeries("mangadex", "x", "", "2000")
	w.bookmark(ann, "mangadex", "x", "")
	w.mb.AddUser(annPAT, "ann")
	w.connect(ann, annPAT)
	w.pull(w.svc)
	w.read(ann, "mangadex", "x", "4")
	for range 3 {
		w.clock.Advance(trackersync.DefaultPushWindow + time.Second)
		w.push(w.svc)
	}
	if len(w.mb.Writes()) != 0 {
		t.Fatalf("writes %v to a series not on her library", w.mb.Writes())
	}
}

// TestMangaBakaTwoIDsSkipSeries: a Series whose ids (the Site's and
// Ann's own) name two MangaBaka series is skipped by the pull and listed.
func TestMangaBakaTwoIDsSkipSeries(t *testing.T) {
	w := newMBWorld(t)
	ann := w.reader("ann")
	w.mbSeries("mangadex", "a", "", "1000")
	w.ownMB(ann, "mangadex", "a", "1005")
	w.bookmark(ann, "mangadex", "a", "3")
	w.mb.AddUser(annPAT, "ann", mbEntry("1000", 17, trackers.StatusCurrent), mbEntry("1005", 20, trackers.StatusCurrent))
	w.connect(ann, annPAT)
	w.pull(w.svc)
	if n, _ := w.progress(ann, "mangadex", "a"); n != "3" {
		t.Fatalf("Progress %s, want 3 (skipped)", n)
	}
	ts, err := w.svc.List(w.ctx, ann)
	if err != nil || len(ts) != 1 || ts[0].Service != mangabaka.Name || len(ts[0].Skipped) != 1 ||
		fmt.Sprint(ts[0].Skipped[0].MediaIDs) != "[1000 1005]" {
		t.Fatalf("list %+v, %v", ts, err)
	}
}

// TestMangaBakaHostileLibraryMovesNothing: a library answer that is huge,
// of the wrong types, or endless fails the pull whole (state failing, the
// reason in a sentence) and moves no Progress; entries that cannot be read
// inside a good answer are skipped one by one.
func TestMangaBakaHostileLibraryMovesNothing(t *testing.T) {
	huge := `{"status":200,"data":[` + strings.Repeat(`{"series_id":1000,"progress_chapter":99,"note":"`+strings.Repeat("x", 1<<20)+`"},`, 9) +
		`{"series_id":1000,"progress_chapter":99}]}`
	cases := map[string]struct {
		library  string
		moved    string
		failing  bool
		fragment string
	}{
		"huge":         {huge, "10", true, "larger than we read"},
		"data object":  {`{"status":200,"data":{"series_id":1000,"progress_chapter":99}}`, "10", true, "not the shape it documents"},
		"not json":     {`<html>cloudflare</html>`, "10", true, "not the shape it documents"},
		"wrong types":  {`{"status":200,"data":[{"series_id":"1000x","progress_chapter":99},{"series_id":1000,"progress_chapter":"lots"},{"series_id":1000,"progress_chapter":-5},{"series_id":1000,"progress_chapter":25}],"pagination":{"next":null}}`, "25", false, ""},
		"over a bound": {`{"status":200,"data":[{"series_id":1000,"progress_chapter":10001}],"pagination":{"next":null}}`, "10", false, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				rw.Header().Set("Content-Type", "application/json")
				switch r.URL.Path {
				case "/v1/my/profile":
					_, _ = rw.Write([]byte(`{"status":200,"data":{"id":"u1","preferred_username":"ann"}}`))
				case "/v1/my/library":
					_, _ = rw.Write([]byte(tc.library))
				default:
					rw.WriteHeader(http.StatusNotFound)
					_, _ = rw.Write([]byte(`{"status":404,"message":"Not Found"}`))
				}
			})
			w := newMBWorldOn(t, h)
			ann := w.reader("ann")
			w.mbSeries("mangadex", "a", "", "1000")
			w.bookmark(ann, "mangadex", "a", "10")
			w.connect(ann, annPAT)
			w.pull(w.svc)
			if n, _ := w.progress(ann, "mangadex", "a"); n != tc.moved {
				t.Fatalf("Progress %s, want %s", n, tc.moved)
			}
			a := w.mbAccount(ann)
			if (a.State == store.TrackerFailing) != tc.failing || !strings.Contains(a.Error, tc.fragment) {
				t.Fatalf("state %s %q; failing %v with %q wanted", a.State, a.Error, tc.failing, tc.fragment)
			}
		})
	}
}
