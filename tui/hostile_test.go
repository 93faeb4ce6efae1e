package tui

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
)

const evilTitle = "\x1b]0;pwned\x07Evil\x1b[2J Title\u009b31m \x1b]52;c;cHduZWQ=\x07 \u202eevil"

// unsafeAt reports where a view holds a character a terminal could act on
// (the test renders without colour, so no escape belongs in it).
func unsafeAt(s string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == '\u202e' {
			return s[max(0, i-20):min(len(s), i+20)], true
		}
	}
	return "", false
}

// Site text with control characters reaches every dashboard view only as
// visible, inert text: the Lanes view (its oldest failing titles and pause
// windows), the Lane detail, the worklist and the search line.
func TestHostileTextIsShownInert(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	ctx := context.Background()
	// Raw SQL on purpose: the row is the attack. The store cleans Site
	// text and a pause reason as it writes them (safetext), so only a
	// forged row holds the control characters under test.
	db := f.Store.Pool()
	for _, q := range []string{
		`UPDATE series SET title = $1 WHERE site = 'comix' AND series_id = '1'`,
		`UPDATE series SET title = $1 WHERE site = 'weebcentral' AND series_id = '1'`,
		`UPDATE poll_lanes SET pause_reason = $1 WHERE site = 'mangadex'`,
	} {
		if _, err := db.Exec(ctx, q, evilTitle); err != nil {
			t.Fatal(err)
		}
	}
	clock := &testClock{t: admintest.Now}
	m := loaded(t, f, clock, 140, 40)
	views := map[string]Model{
		"lanes":   m,
		"detail":  keys(t, m, "down", "down", "enter"), // mangadex, the paused Lane
		"failing": keys(t, m, "2"),
		"search":  step(t, keys(t, m, "2", "/"), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("\x1b]0;x\x07")}),
	}
	for name, v := range views {
		out := v.View()
		if near, bad := unsafeAt(out); bad {
			t.Errorf("%s view holds a control character near %q", name, near)
		}
		if name != "search" && !strings.Contains(out, "␛]0;pwned␇Evil␛[2J") {
			t.Errorf("%s view does not show the hostile text as visible symbols:\n%s", name, out)
		}
	}
}
