package views

import (
	"fmt"
	"time"

	"mangabookmark/backend/safetext"
)

// Banner is the one-line fault banner shown while the server cannot be
// reached (or refuses the token): what failed, since when, and the age of
// the data still on screen.
func Banner(f Frame, msg string, since, lastOK time.Time) string {
	text := fmt.Sprintf(" ✖ %s for %s · retrying", safetext.Show(msg), Human(f.Now.Sub(since)))
	if !lastOK.IsZero() {
		text += fmt.Sprintf(" · data %s old", Human(f.Now.Sub(lastOK)))
	}
	return f.S.Banner.Render(fit(text+" ", f.Width))
}
