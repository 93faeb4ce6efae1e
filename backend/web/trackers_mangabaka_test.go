package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"mangabookmark/client"
)

// mbCard is the MangaBaka section of a settings page.
func mbCard(t *testing.T, body string) string {
	t.Helper()
	i := strings.Index(body, `data-service="mangabaka"`)
	if i < 0 {
		t.Fatal("the settings page has no MangaBaka card")
	}
	rest := body[i:]
	if j := strings.Index(rest, "</section>"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

func TestMangaBakaCardOffAsksForAToken(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, true)
	c := w.login(t, w.readerToken)
	card := mbCard(t, w.get(t, c, "/settings").body)
	for _, want := range []string{`data-state="off"`, "Off: paste a MangaBaka personal access token",
		"MangaBaka personal access token (starts with mb-)", `action="/trackers/mangabaka/token"`,
		`name="pull"`, `name="push"`, "none yet: paste a token below", `"API and Apps"`} {
		if !strings.Contains(card, want) {
			t.Errorf("the MangaBaka card lacks %q", want)
		}
	}
	for _, not := range []string{`name="username"`, `/trackers/mangabaka/connect`, "PIN page"} {
		if strings.Contains(card, not) {
			t.Errorf("the MangaBaka card has %q", not)
		}
	}
}

func TestMangaBakaCardFormsAndStates(t *testing.T) {
	t.Parallel()
	w := newTrackerWorld(t, false)
	w.tr.unknown = "nobody" // the fake refuses this user name (and "" by default)
	c := w.login(t, w.readerToken)
	csrf := w.csrf(t, c, "/settings")
	// A pasted token, then the switches without a user name.
	a := w.postForm(t, c, "/trackers/mangabaka/token", url.Values{"csrf": {csrf}, "token": {"mb-ann-0123456789abcdef"}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/settings?tracker=mangabaka&done=token#trackers" {
		t.Fatalf("token: %d %s", a.code, a.header.Get("Location"))
	}
	a = w.postForm(t, c, "/trackers/mangabaka", url.Values{"csrf": {csrf}, "pull": {"on"}, "push": {"on"}, "username": {"ignored name"}})
	if a.code != http.StatusSeeOther || !strings.Contains(a.header.Get("Location"), "tracker=mangabaka&done=saved") {
		t.Fatalf("save: %d %s %s", a.code, a.header.Get("Location"), a.body)
	}
	if got := w.tr.get(readerID); got.Service != "mangabaka" || got.Username != "" || !got.Pull || !got.Push {
		t.Fatalf("saved %+v: the MangaBaka form sends no user name", got)
	}
	if p := w.get(t, c, "/settings?tracker=mangabaka&done=saved"); !strings.Contains(p.body, "MangaBaka settings saved.") {
		t.Error("no MangaBaka flash")
	}
	// A refused token: the card says both directions stop, and shows the
	// account (never the token).
	w.tr.set(readerID, client.Tracker{Service: "mangabaka", Username: "ann-baka", Pull: true, Push: true, Connected: true,
		State: "reconnect", Error: "MangaBaka refused the token (expired or revoked); paste a new one."})
	card := mbCard(t, w.get(t, c, "/settings").body)
	for _, want := range []string{`data-state="reconnect"`, "nothing is read from or written to MangaBaka until you paste a new token",
		"<strong>ann-baka</strong>", "Last error: MangaBaka refused the token"} {
		if !strings.Contains(card, want) {
			t.Errorf("the reconnect card lacks %q", want)
		}
	}
	if strings.Contains(card, "mb-ann-0123456789abcdef") {
		t.Error("the card shows the token")
	}
}
