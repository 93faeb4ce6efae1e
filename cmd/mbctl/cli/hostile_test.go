package cli_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"mangabookmark/backend/api/apitest"
)

// evilTitle is issue 13's title (OSC 0 retitles the terminal, ESC[2J
// clears it, C1 CSI), with OSC 52 (clipboard) and OSC 8 (link) added.
const evilTitle = "\x1b]0;pwned\x07Evil\x1b[2J Title\u009b31m \x1b]52;c;cHduZWQ=\x07 \x1b]8;;http://evil.example\x1b\\x\x1b]8;;\x1b\\"

// terminalUnsafe reports the first byte or character a terminal could act
// on: C0 controls other than newline, DEL, C1, or a byte that is not UTF-8.
func terminalUnsafe(s string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) {
			return s[max(0, i-20):min(len(s), i+20)], true
		}
	}
	return "", false
}

// Site text stored with control characters (rows from before the store
// cleaned it, or written by any other path) reaches mbctl's tables and
// --json output only as visible, inert text.
func TestHostileTextIsShownInert(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	ctx := context.Background()
	// Raw SQL on purpose: the row is the attack. The store cleans Site
	// text and a pause reason as it writes them (safetext), so only a
	// forged row holds the control characters under test.
	db := f.Store.Pool()
	if _, err := db.Exec(ctx, `UPDATE series SET title = $1 WHERE site = 'comix' AND series_id = '1'`, evilTitle); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `UPDATE poll_lanes SET pause_reason = $1 WHERE site = 'mangadex'`, "moving\x1b[2J\u009b"+evilTitle); err != nil {
		t.Fatal(err)
	}
	env := ownerEnv(f)
	tried := 0
	for _, args := range [][]string{{"failing"}, {"lanes"}, {"--json", "failing"}, {"--json", "lanes"}} {
		r := mbctl(t, env, t.TempDir(), args...)
		tried++
		if r.code != 0 {
			t.Fatalf("mbctl %v = %d: %s", args, r.code, r.stderr)
		}
		if near, bad := terminalUnsafe(r.stdout); bad {
			t.Errorf("mbctl %v printed a control character near %q", args, near)
		}
		want := "␛]0;pwned␇Evil␛[2J Title"
		if args[0] == "--json" {
			want = `\u001b]0;pwned\u0007Evil\u001b[2J Title\u009b31m`
		}
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mbctl %v does not show the title as visible text %q:\n%s", args, want, r.stdout)
		}
	}
	t.Logf("hostile outputs checked: %d", tried)
}
