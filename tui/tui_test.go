package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/store/storetest"
	"mangabookmark/client"
	"mangabookmark/internal/golden"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// testClock is a clock tests move by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func step(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	next, _ := m.Update(msg)
	return next.(Model)
}

// refresh runs the model's fetch command for real and applies its answer.
func refresh(t *testing.T, m Model) Model {
	t.Helper()
	return step(t, m, m.fetch()())
}

func keys(t *testing.T, m Model, ks ...string) Model {
	t.Helper()
	for _, k := range ks {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "tab":
			msg = tea.KeyMsg{Type: tea.KeyTab}
		case "space": // as a terminal sends it: KeySpace carrying the rune
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m = step(t, m, msg)
	}
	return m
}

func loaded(t *testing.T, f *apitest.Fixture, clock *testClock, w, h int) Model {
	t.Helper()
	c, err := client.New(f.URL(), apitest.OwnerToken)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Client: c, Now: clock.Now})
	m = step(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return refresh(t, m)
}

func goldenView(t *testing.T, name string, m Model, server string) {
	t.Helper()
	got := strings.ReplaceAll(m.View(), server, "http://SERVER")
	lines := strings.Split(got, "\n")
	if len(lines) != m.height {
		t.Errorf("%s: view has %d lines, want %d", name, len(lines), m.height)
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > m.width {
			t.Errorf("%s: line %d is %d cells wide, over %d: %q", name, i, w, m.width, l)
		}
	}
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func TestViewsGolden(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	for _, size := range []struct{ w, h int }{{80, 24}, {140, 40}} {
		clock := &testClock{t: admintest.Now}
		m := loaded(t, f, clock, size.w, size.h)
		suffix := "_" + fmtInt(size.w) + "x" + fmtInt(size.h)
		goldenView(t, "lanes"+suffix, m, f.URL())

		// Detail of weebcentral (fourth Lane): enter, then the passes arrive.
		d := keys(t, m, "down", "down", "down", "enter")
		d = refresh(t, d)
		if d.screen != ScreenDetail || d.detailSite != "weebcentral" || len(d.passes) != 30 {
			t.Fatalf("detail: view %v site %q passes %d", d.screen, d.detailSite, len(d.passes))
		}
		goldenView(t, "detail"+suffix, d, f.URL())

		w := keys(t, m, "2", "down")
		goldenView(t, "failing"+suffix, w, f.URL())
		ws := keys(t, w, "/", "c", "o", "m", "i", "x", "enter")
		if len(ws.failShown) != 4 {
			t.Errorf("search comix shows %d rows, want 4", len(ws.failShown))
		}
		goldenView(t, "failing_search"+suffix, ws, f.URL())

		goldenView(t, "help"+suffix, keys(t, m, "?"), f.URL())
		goldenView(t, "notices"+suffix, keys(t, m, "3"), f.URL())
	}
}

func fmtInt(n int) string {
	var b []byte
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestUnreachableBannerGolden(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{80, 24}, {140, 40}} {
		f := apitest.Start(t)
		clock := &testClock{t: admintest.Now}
		m := loaded(t, f, clock, size.w, size.h)
		m = keys(t, m, "down")
		server := f.URL()
		f.Server.Close()
		clock.Add(2 * time.Minute)
		m = refresh(t, m)
		if m.err == nil || m.laneList.sel != 1 || len(m.lanes) != 6 {
			t.Fatalf("after the server went: err %v, selection %d, lanes %d", m.err, m.laneList.sel, len(m.lanes))
		}
		clock.Add(30 * time.Second)
		name := "unreachable_" + fmtInt(size.w) + "x" + fmtInt(size.h)
		goldenView(t, name, m, server)
		if !strings.Contains(m.View(), "cannot reach") {
			t.Errorf("no banner in %s", m.View())
		}
	}
}

func TestRecoversWhenServerReturns(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	clock := &testClock{t: admintest.Now}
	good := loaded(t, f, clock, 100, 30)
	bad, _ := client.New("http://127.0.0.1:1", apitest.OwnerToken)
	m := good
	m.opt.Client = bad
	m = refresh(t, m)
	if m.err == nil || !strings.Contains(m.View(), "cannot reach") {
		t.Fatalf("no banner with the server gone")
	}
	m.opt.Client = good.opt.Client
	m = refresh(t, m)
	if m.err != nil || strings.Contains(m.View(), "cannot reach") {
		t.Fatalf("banner stayed after the server came back: %v", m.err)
	}
}

func TestRefreshKeepsSelection(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	clock := &testClock{t: admintest.Now}
	m := loaded(t, f, clock, 100, 30)
	m = keys(t, m, "2", "down", "down", "down")
	want := m.failShown[m.failList.sel]
	// A new failure older than all the others arrives at the top.
	storetest.Failure(context.Background(), t, f.Store, storetest.FailureOpts{Site: "comix", SeriesID: "9", Since: admintest.Now.Add(-20 * 24 * time.Hour)})
	m = refresh(t, m)
	if got := m.failShown[m.failList.sel]; got.Site != want.Site || got.SeriesID != want.SeriesID {
		t.Errorf("selection moved from %s/%s to %s/%s", want.Site, want.SeriesID, got.Site, got.SeriesID)
	}
	if m.failTotal != 12 {
		t.Errorf("total = %d, want 12", m.failTotal)
	}
}

// TestForceAndPauseFlow drives the real program: force the oldest failing
// Series from the worklist, pause the first Lane through the prompt, and
// checks both on the server.
func TestForceAndPauseFlow(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	c, err := client.New(f.URL(), apitest.OwnerToken)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Client: c, Now: func() time.Time { return admintest.Now }, Refresh: 200 * time.Millisecond})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("weebcentral")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	wait("no_chapter")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	wait("forced a poll of weebcentral/1")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	wait("pause kagane for")
	tm.Type("2h checking mirror")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	wait("paused kagane for 2h")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	s, err := f.Store.GetSeries(context.Background(), "weebcentral", "1")
	if err != nil || s.ForcePollAt == nil || !s.ForcePollAt.Equal(admintest.Now) {
		t.Errorf("weebcentral/1 force_poll_at = %v (%v), want %v", s.ForcePollAt, err, admintest.Now)
	}
	lanes, err := c.Lanes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l := lanes[0]; l.Site != "kagane" || l.State != client.StatePaused || l.PauseReason != "checking mirror" ||
		l.PausedUntil == nil || !l.PausedUntil.Equal(admintest.Now.Add(2*time.Hour)) {
		t.Errorf("kagane after the flow = %+v", l)
	}
	if w := f.Lanes.Wakes(); len(w) != 2 || w[0] != "weebcentral" || w[1] != "kagane" {
		t.Errorf("wakes = %v, want [weebcentral kagane]", w)
	}
}

func TestKeysArrivingTogether(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	m := loaded(t, f, &testClock{t: admintest.Now}, 100, 30)
	m = step(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2jj")})
	if m.screen != ScreenFailing || m.failList.sel != 2 {
		t.Errorf("after \"2jj\" in one read: view %v selection %d, want failing and 2", m.screen, m.failList.sel)
	}
}

// TestSearchTypesOneSpace: a space typed into the worklist search adds one
// space, so a title of two words is found.
func TestSearchTypesOneSpace(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.screen = ScreenFailing
	m.failAll = []client.Failing{
		{Site: "comix", SeriesID: "1", Title: "One Piece", Outcome: "errors"},
		{Site: "comix", SeriesID: "2", Title: "One Punch", Outcome: "errors"},
	}
	m.refilter()
	m = keys(t, m, "/", "o", "n", "e", "space", "p", "i")
	if m.filter.Search != "one pi" {
		t.Errorf("search = %q, want %q", m.filter.Search, "one pi")
	}
	if len(m.failShown) != 1 || m.failShown[0].SeriesID != "1" {
		t.Errorf("shown = %+v, want only One Piece", m.failShown)
	}
}
