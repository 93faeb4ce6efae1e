package config

import (
	"errors"
	"strings"
	"testing"
)

// RELEASE_FEED is on by default, off only when it says so, and anything
// else stops start-up with a reason naming both words.
func TestReleaseFeedSetting(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"": true, "on": true, "On": true, "off": false, " OFF ": false} { //nolint:gocritic // the spaces are the case: a value is trimmed
		c, err := Load(env(map[string]string{"RELEASE_FEED": v}))
		if err != nil || c.ReleaseFeed != want {
			t.Errorf("RELEASE_FEED=%q: release feed %v, %v; want %v", v, c.ReleaseFeed, err, want)
		}
	}
	for _, v := range []string{"true", "0", "maybe"} {
		_, err := Load(env(map[string]string{"RELEASE_FEED": v}))
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != "RELEASE_FEED" || !strings.Contains(ce.Reason, "on") || !strings.Contains(ce.Reason, "off") {
			t.Errorf("RELEASE_FEED=%q: %v, want a refusal naming on and off", v, err)
		}
	}
}
