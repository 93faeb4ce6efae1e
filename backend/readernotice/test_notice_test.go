package readernotice_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
)

// Issue 33 A1: one test call made the server POST to every outlet target
// at once, as often as the Reader called, and the shared Discord channel
// took 16 tests in 0.9 s. A Reader gets one test a minute, whatever the
// face; the shared channel takes one test a DiscordTestEvery from the
// whole server.
func TestTestNoticesArePaced(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	discord := newHook(t)
	w := newWorld(t, func(c *readernotice.Config) { c.DiscordURL = discord.URL + "/discord" })
	on := true
	var readers []int64
	for _, id := range []string{"71", "72"} {
		r, err := w.st.UpsertReader(w.ctx, id, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{Discord: &on, WebhookURL: ptr(h.URL + "/wh")}); err != nil {
			t.Fatal(err)
		}
		readers = append(readers, r.ID)
	}
	bob, ann := readers[0], readers[1]
	ctx := context.Background()
	if _, err := w.svc.SendTest(ctx, bob); err != nil {
		t.Fatal(err)
	}
	w.clk.Add(readernotice.TestEvery - time.Second)
	_, err := w.svc.SendTest(ctx, bob)
	var soon *readernotice.TestTooSoonError
	if !errors.As(err, &soon) || soon.Seconds() != 1 {
		t.Fatalf("a second test 59 s later: %v, want TestTooSoonError waiting 1 s", err)
	}
	if n := len(h.received()); n != 1 {
		t.Fatalf("%d webhook posts after the refused test, want 1", n)
	}

	// Ann's test comes within DiscordTestEvery of Bob's: the shared
	// channel skips it (her webhook still gets it), then takes the next.
	w.clk.Add(-readernotice.TestEvery + readernotice.DiscordTestEvery - time.Second)
	res, err := w.svc.SendTest(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]readernotice.TestResult{}
	for _, x := range res {
		got[x.Outlet] = x
	}
	if got["discord"].OK || got["discord"].Error == "" || !got["webhook"].OK {
		t.Fatalf("Ann's test beside Bob's: %+v, want Discord skipped with the reason and the webhook sent", res)
	}
	if n := len(discord.received()); n != 1 {
		t.Fatalf("the shared channel took %d tests, want 1", n)
	}
	w.clk.Add(readernotice.TestEvery)
	if _, err := w.svc.SendTest(ctx, bob); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
	if n := len(discord.received()); n != 2 {
		t.Fatalf("the shared channel took %d tests after the pause, want 2", n)
	}
}
