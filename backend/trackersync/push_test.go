package trackersync_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackersync"
)

const token = "standin-secret-token-0123456789abcdef"

// pushWorld is a Reader with a token and one AniList-linked bookmark.
func pushWorld(t *testing.T, remote trackers.Entry) (*world, *trackersync.Service, int64) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "s", "", "501")
	w.bookmark(r, "mangadex", "s", "")
	w.al.AddUser("ann", remote)
	w.setUp(svc, r, "ann", token)
	return w, svc, r
}

func TestPushCoalescesAMinuteOfReads(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 10, trackers.StatusPlanning))
	w.pull(svc) // remembers AniList's 10
	saves := w.al.Requests(trackers.KindSave)
	// Five reads in a minute, the push worker looking after each.
	for _, n := range []string{"11", "12", "12.5", "13", "14.5"} {
		w.read(r, "mangadex", "s", n)
		if got := w.push(svc); got != 0 {
			t.Fatalf("pushed %d inside the window", got)
		}
		w.clock.Advance(10 * time.Second)
	}
	w.clock.Advance(trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 1 || w.al.Requests(trackers.KindSave)-saves != 1 {
		t.Fatalf("after the window: pushed %d, %d writes; want 1", got, w.al.Requests(trackers.KindSave)-saves)
	}
	e, _ := w.al.Entry("ann", "501")
	if e.Progress != 14 || e.Status != trackers.StatusCurrent {
		t.Fatalf("remote = %+v, want 14 (14.5 rounded down), CURRENT (was PLANNING)", e)
	}
	if a := w.account(r); a.LastPushAt == nil {
		t.Fatal("last_push_at not set")
	}
	// Nothing more to push: no further request at all.
	w.clock.Advance(5 * time.Minute)
	before := w.al.Requests(trackers.KindProgress) + w.al.Requests(trackers.KindSave)
	if got := w.push(svc); got != 0 || w.al.Requests(trackers.KindProgress)+w.al.Requests(trackers.KindSave) != before {
		t.Fatal("a push went out with nothing to push")
	}
}

func TestPushNeverLowersTheRemote(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 5, trackers.StatusCurrent))
	w.pull(svc) // remembers 5; our Progress is now 5 (pulled)
	w.read(r, "mangadex", "s", "9")
	// Meanwhile the Reader reads to 20 on their phone; we remember 5.
	w.al.SetEntry("ann", entry("501", 20, trackers.StatusCompleted))
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 0 {
		t.Fatalf("pushed %d over a higher remote", got)
	}
	if e, _ := w.al.Entry("ann", "501"); e.Progress != 20 || e.Status != trackers.StatusCompleted {
		t.Fatalf("remote = %+v, want 20 COMPLETED untouched", e)
	}
	// The read remote (20) is remembered: the next look sends nothing.
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	reads := w.al.Requests(trackers.KindProgress)
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	w.push(svc)
	if w.al.Requests(trackers.KindProgress) != reads {
		t.Fatal("the remote was read again though it is remembered above our Progress")
	}
}

func TestPushRefusedTokenTurnsReconnect(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 1, trackers.StatusCurrent))
	w.pull(svc)
	w.al.Expire(token)
	w.read(r, "mangadex", "s", "3")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 0 {
		t.Fatalf("pushed %d with an expired token", got)
	}
	a := w.account(r)
	if a.State != store.TrackerReconnect || a.Connected() || a.Error == "" {
		t.Fatalf("account after a 401 = %+v, want reconnect", a)
	}
	// Pushes stop: more reads send nothing.
	w.read(r, "mangadex", "s", "4")
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	before := w.al.Requests(trackers.KindProgress) + w.al.Requests(trackers.KindSave)
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	w.push(svc)
	if w.al.Requests(trackers.KindProgress)+w.al.Requests(trackers.KindSave) != before {
		t.Fatal("a push went out after reconnect")
	}
	// The Reader's next notice says so (a late line).
	storetest.ChapterEvents(w.ctx, t, w.st, storetest.ChapterEventOpts{Site: "mangadex", SeriesID: "s", Number: "50", Title: "c", URL: "https://mangadex.test/c"})
	storetest.Notices(w.ctx, t, w.st, storetest.NoticeOpts{ReaderID: r, Site: "mangadex", SeriesID: "s", Number: "50"})
	var late []store.LateSite
	if _, err := w.st.MakeDigests(w.ctx, time.Now().Add(time.Hour), 10, func(in store.DigestInput) store.DigestPlan {
		late = in.Late
		return store.DigestPlan{}
	}); err != nil {
		t.Fatal(err)
	}
	if len(late) != 1 || late[0].Site != anilist.Name || late[0].State != "tracker_reconnect" {
		t.Fatalf("the notice's late part = %+v, want the tracker to reconnect", late)
	}
	// Pulls go on: they need no token.
	w.clock.Advance(trackersync.DefaultPullEvery)
	if pulled, _ := w.pull(svc); pulled != 1 {
		t.Fatal("pull stopped with the token")
	}
	// A new token reconnects.
	w.al.AddToken("fresh-token-0123456789", "ann")
	if err := svc.SetToken(w.ctx, r, anilist.Name, "fresh-token-0123456789"); err != nil {
		t.Fatal(err)
	}
	if a := w.account(r); a.State != store.TrackerOK || !a.Connected() {
		t.Fatalf("after a new token: %+v", a)
	}
}

func TestSetTokenRefusals(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.al.AddUser("ann")
	w.al.AddUser("bob")
	var ref *trackersync.Refusal
	if err := svc.SetToken(w.ctx, r, anilist.Name, "not-a-token"); !errors.As(err, &ref) {
		t.Fatalf("unknown token = %v, want a *Refusal", err)
	}
	if strings.Contains(ref.Reason, "not-a-token") {
		t.Fatalf("the refusal quotes the token: %q", ref.Reason)
	}
	if err := svc.Save(w.ctx, r, anilist.Name, "ann", true, false); err != nil {
		t.Fatal(err)
	}
	w.al.AddToken("bobs-token-0123456789", "bob")
	if err := svc.SetToken(w.ctx, r, anilist.Name, "bobs-token-0123456789"); !errors.As(err, &ref) {
		t.Fatalf("another account's token = %v, want a *Refusal", err)
	}
	if a := w.account(r); a.HasToken {
		t.Fatal("a refused token was stored")
	}
}

func TestChangedTokenKeyTurnsReconnect(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 1, trackers.StatusCurrent))
	_ = svc
	// The Owner changes TOKEN_KEY: a Service sealing under another key.
	sealer, err := trackers.NewSealer([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	client, err := anilist.New(anilist.Config{Origin: w.origin, Limiter: w.limit})
	if err != nil {
		t.Fatal(err)
	}
	other, err := trackersync.New(trackersync.Config{Store: w.st, Tracker: client, Sealer: sealer, Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	other.CheckTokens(w.ctx)
	if a := w.account(r); a.State != store.TrackerReconnect || a.Error == "" {
		t.Fatalf("after a key change: %+v, want reconnect", a)
	}
	if l, err := other.List(w.ctx, r); err != nil || l[0].Connected || l[0].State != "reconnect" {
		t.Fatalf("list = %+v, %v", l, err)
	}
}

func TestTokenNeverInLogsNorExport(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 1, trackers.StatusCurrent))
	w.pull(svc)
	w.read(r, "mangadex", "s", "3")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 1 {
		t.Fatalf("pushed %d, want 1", got)
	}
	w.al.Expire(token)
	w.read(r, "mangadex", "s", "4")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	w.push(svc)
	if err := svc.SetToken(w.ctx, r, anilist.Name, token); err == nil {
		t.Fatal("an expired token was taken")
	}
	logs := w.logs.String()
	if !strings.Contains(logs, "tracker refused the token") {
		t.Fatalf("the refusal was not logged, so this test proves nothing:\n%s", logs)
	}
	if strings.Contains(logs, token) || strings.Contains(logs, token[:12]) {
		t.Fatalf("the token reached the log:\n%s", logs)
	}
	var sealed []byte
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT token_sealed FROM tracker_accounts WHERE reader_id = $1`, r).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if len(sealed) == 0 || strings.Contains(string(sealed), token[:12]) {
		t.Fatal("the token is stored in the clear")
	}
	var out strings.Builder
	exp, err := imports.ExportOf(w.ctx, w.st, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := imports.WriteJSON(&out, exp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"mangadex"`) || strings.Contains(out.String(), token[:12]) || strings.Contains(out.String(), `"ann"`) {
		t.Fatalf("export holds the token or the tracker, or not the bookmark:\n%s", out.String())
	}
}

func TestPushWaitsForAPauseButNotForever(t *testing.T) {
	w, svc, r := pushWorld(t, entry("501", 10, trackers.StatusCurrent))
	w.pull(svc)
	// A chapter every 30 s, never resting a minute: no push until five
	// windows since the first look, then one with the count of that moment.
	n, pushedAt := 10, -1
	for i := range 12 {
		n++
		w.read(r, "mangadex", "s", strconv.Itoa(n))
		if w.push(svc) > 0 && pushedAt < 0 {
			pushedAt = i
		}
		w.clock.Advance(30 * time.Second)
	}
	if pushedAt != 10 {
		t.Fatalf("first push at read %d, want read 10 (five minutes after the first look)", pushedAt)
	}
	if e, _ := w.al.Entry("ann", "501"); e.Progress != 21 {
		t.Fatalf("remote = %d, want 21 (the Progress when the push went)", e.Progress)
	}
}

func TestConnectPushesOnlyWhatMovesAfter(t *testing.T) {
	w := newWorld(t)
	svc := w.service("p1")
	r := w.reader("ann")
	w.series("mangadex", "old", "", "701")
	w.series("mangadex", "new", "", "702")
	w.bookmark(r, "mangadex", "old", "40") // read before the token: not AniList's business
	w.bookmark(r, "mangadex", "new", "")
	// Both on her list, planned (a push writes only media her pull saw on
	// her list, or that she named).
	w.al.AddUser("ann", entry("701", 0, trackers.StatusPlanning), entry("702", 0, trackers.StatusPlanning))
	w.setUp(svc, r, "ann", token)
	w.pull(svc)
	w.read(r, "mangadex", "new", "3")
	w.push(svc)
	w.clock.Advance(2 * trackersync.DefaultPushWindow)
	if got := w.push(svc); got != 1 {
		t.Fatalf("pushed %d, want only the Series read after connecting", got)
	}
	if e, _ := w.al.Entry("ann", "701"); e.Progress != 0 {
		t.Fatalf("connecting pushed the whole library: 701 = %+v", e)
	}
	if e, _ := w.al.Entry("ann", "702"); e.Progress != 3 {
		t.Fatalf("remote 702 = %+v, want 3", e)
	}
}
