package readernotice_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
)

// A webhook receiver that answers 410 (removed) refuses for good: it is
// tried once, never again, even for the next Digest; the settings show it
// stopped and failing with the reason; the Reader hears of it through
// their other outlet (ntfy here), once; saving the URL again starts it.
// Receivers as in ntfy_test.go and world_test.go.
func TestWebhookAnswering410StopsAndTheReaderIsTold(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	n := newNtfyServer(t)
	h.setStatus(http.StatusGone)
	rid := w.reader("5", h, 0)
	topic := n.URL + "/topic"
	if _, err := w.svc.UpdateSettings(w.ctx, rid, readernotice.SettingsChange{NtfyURL: &topic}); err != nil {
		t.Fatal(err)
	}
	w.bookmark(rid, "mangapill", "a")
	// Another Reader's webhook on the same Series: one receiver's refusal
	// stops that Reader's outlet only.
	other := newHook(t)
	oid := w.reader("9", other, 0)
	w.bookmark(oid, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	if got := len(h.received()); got != 1 {
		t.Fatalf("the webhook was called %d times, want once", got)
	}
	// Every backoff past: nothing is retried to the refusing webhook.
	for range 3 {
		w.clk.Add(2 * time.Hour)
		w.run()
	}
	if got := len(h.received()); got != 1 {
		t.Fatalf("the webhook answered 410 and was called %d times, want once", got)
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE reader_id = $1 AND outlet = 'webhook' AND sent_at IS NULL AND dropped_at IS NULL`, rid); n != 0 {
		t.Fatalf("%d webhook deliveries still pending", n)
	}
	set, err := w.svc.Settings(w.ctx, rid)
	if err != nil {
		t.Fatal(err)
	}
	var hook *struct {
		failing, stopped bool
		reason           string
	}
	for _, o := range set.Outlets {
		if o.Outlet == "webhook" {
			hook = &struct {
				failing, stopped bool
				reason           string
			}{o.FailingSince != nil, o.StoppedAt != nil, o.LastError}
		}
	}
	if hook == nil || !hook.failing || !hook.stopped || !strings.Contains(hook.reason, "HTTP 410") {
		t.Fatalf("the settings show the webhook as %+v, want failing and stopped, with HTTP 410 as the reason", hook)
	}
	if set.WebhookURL == "" {
		t.Fatal("the stop cleared the Reader's webhook URL: they lose what they set")
	}
	// Told through ntfy: the chapter's Digest, then the stop notice, once.
	msgs := n.messages()
	var told []ntfyMessage
	for _, m := range msgs {
		if strings.Contains(m.Message, "Your webhook notices stopped") {
			told = append(told, m)
		}
	}
	if len(told) != 1 || !strings.Contains(told[0].Message, "HTTP 410") || !strings.Contains(told[0].Message, "Set its URL again") {
		t.Fatalf("ntfy got %d stop notices, want 1 naming HTTP 410 and what to do; all: %q", len(told), msgs)
	}
	if title := told[0].Header.Get("Title"); title != "Your webhook notices stopped" {
		t.Errorf("the stop notice's title %q", title)
	}
	// The next chapter: ntfy gets it, with the stop in its late part; the
	// stopped webhook gets nothing.
	w.read("mangapill", "a", "3")
	w.run()
	if got := len(h.received()); got != 1 {
		t.Fatalf("a new Digest went to the stopped webhook (%d calls)", got)
	}
	last := n.messages()[len(n.messages())-1]
	if !strings.Contains(last.Message, "Series a 3") || !strings.Contains(last.Message, "Your webhook notices stopped") {
		t.Errorf("the next Digest on ntfy: %q", last.Message)
	}
	// Saving the URL again starts it.
	h.setStatus(0)
	u := h.URL + "/hook/5"
	if _, err := w.svc.UpdateSettings(w.ctx, rid, readernotice.SettingsChange{WebhookURL: &u}); err != nil {
		t.Fatal(err)
	}
	w.read("mangapill", "a", "4")
	w.run()
	if got := h.received(); len(got) != 2 || !strings.Contains(string(got[1].Body), `"number":"4"`) {
		t.Fatalf("after the URL was saved again the webhook got %d calls", len(got))
	}
	set, _ = w.svc.Settings(w.ctx, rid)
	for _, o := range set.Outlets {
		if o.Outlet == "webhook" && (o.StoppedAt != nil || o.FailingSince != nil) {
			t.Errorf("the webhook still shows stopped or failing: %+v", o)
		}
	}
	if got := other.received(); len(got) != 3 {
		t.Fatalf("the other Reader's webhook got %d Digests, want chapters 2, 3 and 4", len(got))
	}
	for _, c := range other.received() {
		if strings.Contains(string(c.Body), "outlet_stopped") {
			t.Fatalf("the other Reader heard of this Reader's stop: %s", c.Body)
		}
	}
}

// The answers that are not refusals: 429 and 5xx are retried with the
// backoff, and the outlet stays on.
func TestWebhookAnswering503And429IsRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusInternalServerError} {
		w := newWorld(t)
		h := newHook(t)
		h.setStatus(status)
		rid := w.reader("6", h, 0)
		w.bookmark(rid, "mangapill", "a")
		w.read("mangapill", "a", "1")
		w.read("mangapill", "a", "2")
		w.run()
		w.clk.Add(31 * time.Second) // the first backoff
		w.run()
		if got := len(h.received()); got != 2 {
			t.Fatalf("HTTP %d: %d calls, want the first and its retry", status, got)
		}
		h.setStatus(0)
		w.clk.Add(61 * time.Second) // the second backoff
		w.run()
		if got := len(h.received()); got != 3 {
			t.Fatalf("HTTP %d: %d calls, want a third that succeeds", status, got)
		}
		if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE reader_id = $1 AND sent_at IS NOT NULL`, rid); n != 1 {
			t.Fatalf("HTTP %d: the retried delivery is not sent", status)
		}
		if n := w.count(`SELECT count(*) FROM notify_outlets WHERE reader_id = $1 AND stopped_at IS NOT NULL`, rid); n != 0 {
			t.Fatalf("HTTP %d stopped the outlet", status)
		}
	}
}

// Each refusal stops; an ntfy topic whose token was revoked (403) is told
// of on the webhook, whose body carries the stop as a late entry.
func TestRefusalsStopEachOutlet(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusGone} {
		w := newWorld(t)
		h := newHook(t)
		ntfy := newHook(t)
		ntfy.setStatus(status)
		rid := w.reader("8", h, 0)
		topic := ntfy.URL + "/topic"
		if _, err := w.svc.UpdateSettings(w.ctx, rid, readernotice.SettingsChange{NtfyURL: &topic}); err != nil {
			t.Fatal(err)
		}
		w.bookmark(rid, "mangapill", "a")
		w.read("mangapill", "a", "1")
		w.read("mangapill", "a", "2")
		w.run()
		w.clk.Add(2 * time.Hour)
		w.run()
		if got := len(ntfy.received()); got != 1 {
			t.Fatalf("ntfy answering %d was called %d times, want once", status, got)
		}
		got := h.received()
		if len(got) != 2 {
			t.Fatalf("HTTP %d: the webhook got %d calls, want the Digest and the stop notice", status, len(got))
		}
		b := decode(t, got[1].Body)
		if len(b.Chapters) != 0 || len(b.Late) != 1 || b.Late[0].State != "outlet_stopped" || b.Late[0].Site != "ntfy" ||
			!strings.Contains(b.Late[0].Title, http.StatusText(status)) {
			t.Fatalf("HTTP %d: the stop notice's body %s", status, got[1].Body)
		}
	}
}
