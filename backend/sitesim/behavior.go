package sitesim

import "time"

// Mode is what a Series' pages do when fetched.
type Mode int

// Modes. The comment gives the outcome the plain route should classify.
const (
	Steady           Mode = iota // normal pages (ok)
	Gone                         // the Site's not-found answer (not_found)
	LayoutChanged                // page served, chapters no longer where adapters look (no_chapter)
	ServerError                  // 503 without challenge markers (errors)
	Slow                         // normal pages after Behavior.Delay (ok, or errors past the client's timeout)
	Hang                         // never answers until the client gives up (errors)
	Oversized                    // 6 MiB body with an honest Content-Length (unfetchable)
	Endless                      // chunked body that never ends (unfetchable)
	RedirectAway                 // 302 to another host (unfetchable)
	RedirectLoop                 // 302 to itself forever (unfetchable)
	HugeLength                   // Content-Length of 1 TiB, short body (unfetchable)
	Malformed                    // right content type, truncated body (unfetchable for JSON, no_chapter for HTML)
	WrongType                    // 200 with an octet-stream body (unfetchable)
	Forbidden                    // plain 403 without challenge markers (unfetchable)
	RateLimited                  // plain 429 without challenge markers (unfetchable)
	Challenge                    // 403 + cf-mitigated: challenge + "Just a moment" (refused)
	JSChallenge                  // script interstitial; a browser passes it, a plain client is refused
	JSChallengeStuck             // script interstitial that never clears (refused on both routes)
)

var modeNames = [...]string{"steady", "gone", "layout_changed", "server_error", "slow", "hang",
	"oversized", "endless", "redirect_away", "redirect_loop", "huge_length", "malformed",
	"wrong_type", "forbidden", "rate_limited", "challenge", "js_challenge", "js_challenge_stuck"}

// Modes lists every mode, in declaration order.
func Modes() []Mode {
	out := make([]Mode, len(modeNames))
	for i := range out {
		out[i] = Mode(i)
	}
	return out
}

// String names the mode in snake_case.
func (m Mode) String() string {
	if int(m) >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "unknown"
}

// ParseMode reads a mode name as String writes it.
func ParseMode(s string) (Mode, bool) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), true
		}
	}
	return Steady, false
}

// Behavior scripts a Site or one Series.
type Behavior struct {
	Mode Mode
	// NewEvery, when positive, publishes a new chapter every NewEvery of
	// simulated time since the simulator's epoch.
	NewEvery time.Duration
	// Delay is how long Slow waits before answering.
	Delay time.Duration
	// TitleHTML, when set, is the Series' title as raw HTML on MangaPill's
	// page (entities and control characters as given), and CoverURL the
	// cover image URL there: the hostile-page tests' inputs.
	TitleHTML, CoverURL string
	// WAF, on Comix, sends the title page to the Site's own "Security
	// check" page under /@waf/, which never clears (refused).
	WAF bool
}
