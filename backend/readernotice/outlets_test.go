package readernotice_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
)

func TestWebhookIsSignedWithTheSecretShownOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r, _ := w.st.UpsertReader(w.ctx, "42", "Ann", nil)
	u := h.URL + "/in"
	set, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{WebhookURL: &u, DigestS: new(int)})
	if err != nil {
		t.Fatal(err)
	}
	secret := set.WebhookSecret
	if len(secret) < 40 || !set.WebhookSecretSet {
		t.Fatalf("no secret shown for a new webhook URL: %+v", set)
	}
	again, _ := w.svc.Settings(w.ctx, r.ID)
	if again.WebhookSecret != "" || !again.WebhookSecretSet {
		t.Fatalf("the secret is shown again: %+v", again)
	}
	if same, _ := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{WebhookURL: &u}); same.WebhookSecret != "" {
		t.Fatal("re-sending the same URL minted a new secret")
	}
	w.bookmark(r.ID, "mangapill", "a")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls", len(got))
	}
	if got[0].Header.Get("X-Mangabookmark-Event") != "new_chapters" || got[0].Header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers: %v", got[0].Header)
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(got[0].Body, got[0].Header); err != nil {
		t.Fatalf("the delivery does not verify under the shown secret: %v", err)
	}
	// The body-only signature of before (no time, no id: replayable
	// forever) is no longer sent.
	if v := got[0].Header.Values("X-Mangabookmark-Signature"); len(v) != 0 {
		t.Fatalf("X-Mangabookmark-Signature is still sent: %q", v)
	}
	b := decode(t, got[0].Body)
	if b.Reader.Name != "Ann" || b.Chapters[0].Number != "2" {
		t.Fatalf("body: %+v", b)
	}
	// A new URL: a new secret; clearing it: off, secret gone.
	u2 := h.URL + "/other"
	if s2, _ := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{WebhookURL: &u2}); s2.WebhookSecret == "" || s2.WebhookSecret == secret {
		t.Fatal("a new webhook URL kept the old secret")
	}
	empty := ""
	if s3, _ := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{WebhookURL: &empty}); s3.WebhookURL != "" || s3.WebhookSecretSet {
		t.Fatalf("clearing the webhook: %+v", s3)
	}
}

func TestNtfyHasTitleClickAndMarkRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := newHook(t)
	r, _ := w.st.UpsertReader(w.ctx, "7", "Bo", nil)
	u := h.URL + "/mytopic"
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{NtfyURL: &u, DigestS: new(int)}); err != nil {
		t.Fatal(err)
	}
	w.bookmark(r.ID, "mangapill", "a")
	w.bookmark(r.ID, "mangapill", "b")
	w.read("mangapill", "a", "1")
	w.read("mangapill", "b", "1")
	w.read("mangapill", "a", "2")
	w.read("mangapill", "b", "3")
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls", len(got))
	}
	hd := got[0].Header
	if hd.Get("Title") != "2 new chapters: Series a 2, Series b 3" {
		t.Fatalf("Title %q", hd.Get("Title"))
	}
	if hd.Get("Click") != "https://mangapill.example/a/2" {
		t.Fatalf("Click %q", hd.Get("Click"))
	}
	if a := hd.Get("Actions"); !strings.Contains(a, "Mark read") || !strings.Contains(a, "view, Open, https://mangapill.example/a/2") {
		t.Fatalf("Actions %q", a)
	}
	if body := string(got[0].Body); !strings.Contains(body, "Series b 3 (Ch 3): https://mangapill.example/b/3") {
		t.Fatalf("body %q", body)
	}
	// The "Mark read" action: an http POST of a signed link that moves
	// Progress to the Digest's chapters.
	a := hd.Get("Actions")
	i := strings.Index(a, "http, Mark read, http://mb.example/act/read/")
	if i < 0 || !strings.Contains(a[i:], "method=POST") {
		t.Fatalf("Mark read is not an http POST action: %q", a)
	}
	link := strings.TrimPrefix(strings.SplitN(a[i:], ", ", 4)[2], "http://mb.example/act/read/")
	for _, bad := range []string{link + "x", "1.99999999999." + strings.Split(link, ".")[2], "", "a.b.c", strings.Replace(link, strings.Split(link, ".")[1], "9999999999", 1)} {
		if _, err := w.svc.MarkReadLink(w.ctx, bad); !errors.Is(err, readernotice.ErrBadReadLink) {
			t.Errorf("a forged link %q: %v", bad, err)
		}
	}
	n, err := w.svc.MarkReadLink(w.ctx, link)
	if err != nil || n != 2 {
		t.Fatalf("mark read: %d %v, want 2 Progress rows moved", n, err)
	}
	var pa, pb string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT (SELECT number::text FROM progress WHERE series_id = 'a'), (SELECT number::text FROM progress WHERE series_id = 'b')`).Scan(&pa, &pb); err != nil || pa != "2" || pb != "3" {
		t.Fatalf("progress after mark read: a %q b %q %v", pa, pb, err)
	}
	if n, _ := w.svc.MarkReadLink(w.ctx, link); n != 0 {
		t.Fatal("a second use moved Progress again")
	}
	w.clk.Add(readernotice.ReadLinkTTL + time.Minute)
	if _, err := w.svc.MarkReadLink(w.ctx, link); !errors.Is(err, readernotice.ErrBadReadLink) {
		t.Fatalf("an expired link: %v", err)
	}
}

func TestDiscordMentionsOnlyTheReader(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	w := newWorld(t, func(c *readernotice.Config) { c.DiscordURL = h.URL + "/api/webhooks/1/secret" })
	r, _ := w.st.UpsertReader(w.ctx, "123456789", "Cy", nil)
	on := true
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{Discord: &on, DigestS: new(int)}); err != nil {
		t.Fatal(err)
	}
	w.bookmark(r.ID, "mangapill", "a")
	w.read("mangapill", "a", "1")
	// A Site title trying to ping everyone and another member.
	if _, err := w.st.RecordOK(w.ctx, "mangapill", "a", storeFacts("@everyone <@999> hi", "2"), w.clk.Now()); err != nil {
		t.Fatal(err)
	}
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls", len(got))
	}
	var body struct {
		Content         string `json:"content"`
		AllowedMentions struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(got[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(body.Content, "<@123456789> ") {
		t.Fatalf("content %q does not start with the mention", body.Content)
	}
	if body.AllowedMentions.Parse == nil || len(body.AllowedMentions.Parse) != 0 ||
		len(body.AllowedMentions.Users) != 1 || body.AllowedMentions.Users[0] != "123456789" {
		t.Fatalf("allowed_mentions %+v, want parse [] and users [the Reader]", body.AllowedMentions)
	}
	if !strings.Contains(string(got[0].Body), `"parse":[]`) {
		t.Fatalf("parse must be an empty list, not absent: %s", got[0].Body)
	}
}

func TestDiscordOptInNeedsTheOwnersChannel(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r, _ := w.st.UpsertReader(w.ctx, "1", "", nil)
	on := true
	_, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{Discord: &on})
	var fe *readernotice.FieldError
	if !errors.As(err, &fe) || fe.Field != "discord" {
		t.Fatalf("discord without the Owner's channel: %v", err)
	}
}

func TestOutletURLsAreCheckedWhenSet(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *readernotice.Config) { c.Guard = netguard.Guard{} })
	r, _ := w.st.UpsertReader(w.ctx, "1", "", nil)
	for _, c := range []struct {
		field string
		ch    readernotice.SettingsChange
	}{
		{"ntfy_url", readernotice.SettingsChange{NtfyURL: ptr("http://127.0.0.1:8080/topic")}},
		{"ntfy_url", readernotice.SettingsChange{NtfyURL: ptr("http://localhost/topic")}},
		{"webhook_url", readernotice.SettingsChange{WebhookURL: ptr("http://[::1]/x")}},
		{"webhook_url", readernotice.SettingsChange{WebhookURL: ptr("http://0.0.0.0/x")}},
		{"webhook_url", readernotice.SettingsChange{WebhookURL: ptr("http://2130706433/x")}},
		{"webhook_url", readernotice.SettingsChange{WebhookURL: ptr("file:///etc/passwd")}},
		{"webhook_url", readernotice.SettingsChange{WebhookURL: ptr("http://169.254.169.254/")}},
		{"digest_s", readernotice.SettingsChange{DigestS: ptr(-1)}},
		{"digest_s", readernotice.SettingsChange{DigestS: ptr(86401)}},
	} {
		_, err := w.svc.UpdateSettings(w.ctx, r.ID, c.ch)
		var fe *readernotice.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: %v, want a %s field error", c.ch, err, c.field)
		}
	}
	set, _ := w.svc.Settings(w.ctx, r.ID)
	if set.NtfyURL != "" || set.WebhookURL != "" || set.DigestS != 900 {
		t.Fatalf("a refused change was stored: %+v", set)
	}
}

func TestTestNoticeReachesEveryOutlet(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	bad := newHook(t)
	bad.setStatus(502)
	w := newWorld(t, func(c *readernotice.Config) { c.DiscordURL = h.URL + "/discord" })
	r, _ := w.st.UpsertReader(w.ctx, "5", "", nil)
	on := true
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{Discord: &on, NtfyURL: ptr(h.URL + "/ntfy"), WebhookURL: ptr(bad.URL + "/wh")}); err != nil {
		t.Fatal(err)
	}
	res, err := w.svc.SendTest(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]readernotice.TestResult{}
	for _, x := range res {
		got[x.Outlet] = x
	}
	if !got["discord"].OK || !got["ntfy"].OK || got["webhook"].OK || !strings.Contains(got["webhook"].Error, "502") {
		t.Fatalf("results: %+v", res)
	}
	if n := len(h.received()); n != 2 {
		t.Fatalf("%d test notices reached the working outlets, want 2", n)
	}
}

func ptr[T any](v T) *T { return &v }
