package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestCommandLineMistakeExits2: an unknown command or flag exits 2, the
// code of every start-up mistake.
func TestCommandLineMistakeExits2(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"serve", "--no-such-flag"}, {"migrate", "sideways"}} {
		if code := run(args, func(string) string { return "" }); code != 2 {
			t.Errorf("mangabookmark %s exited %d, want 2", strings.Join(args, " "), code)
		}
	}
}

// TestDemoRefusesUnknownSite: a misspelt --refusing stops the demo instead
// of silently scripting no Site.
func TestDemoRefusesUnknownSite(t *testing.T) {
	env := &Env{Log: slog.New(slog.DiscardHandler), Getenv: func(string) string { return "" }}
	err := (&DemoCmd{Series: 50, Refusing: "weebcentrl"}).Run(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), `unknown Site`) {
		t.Errorf("demo --refusing weebcentrl: %v, want an unknown Site error", err)
	}
}
