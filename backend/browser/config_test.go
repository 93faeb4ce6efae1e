package browser_test

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/browser"
)

// TestNewValidates shows New refusing a Config that cannot work, with an
// error naming the field, and never quoting a hosted browser's token.
func TestNewValidates(t *testing.T) {
	t.Parallel()
	ok := "ws://127.0.0.1:9222/devtools/browser/x"
	for _, tc := range []struct {
		name  string
		cfg   browser.Config
		field string
	}{
		{"no endpoint", browser.Config{}, "WSURL"},
		{"file scheme", browser.Config{WSURL: "file:///tmp/chrome"}, "WSURL"},
		{"bare host", browser.Config{WSURL: "127.0.0.1:9222"}, "WSURL"},
		{"no host", browser.Config{WSURL: "ws:///devtools"}, "WSURL"},
		{"negative challenge wait", browser.Config{WSURL: ok, ChallengeWait: -time.Second}, "ChallengeWait"},
		{"negative read timeout", browser.Config{WSURL: ok, ReadTimeout: -1}, "ReadTimeout"},
		{"negative poll", browser.Config{WSURL: ok, PollInterval: -time.Millisecond}, "PollInterval"},
		{"negative body", browser.Config{WSURL: ok, MaxBody: -5}, "MaxBody"},
	} {
		b, err := browser.New(tc.cfg)
		if err == nil {
			_ = b.Close()
			t.Errorf("%s: New accepted %+v", tc.name, tc.cfg)
			continue
		}
		if !strings.Contains(err.Error(), "Config."+tc.field) {
			t.Errorf("%s: error %q does not name Config.%s", tc.name, err, tc.field)
		}
	}

	_, err := browser.New(browser.Config{WSURL: "ftp://user:hunter2@host/x?token=hunter2"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v: want a refusal that does not quote the credentials", err)
	}

	for _, good := range []string{ok, "wss://browser.example.net/?token=x", "http://127.0.0.1:9222", "https://h:1"} {
		b, err := browser.New(browser.Config{WSURL: good})
		if err != nil {
			t.Errorf("New(%q): %v", good, err)
			continue
		}
		_ = b.Close()
	}
}
