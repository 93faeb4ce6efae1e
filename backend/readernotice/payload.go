package readernotice

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Recipient is who a Digest goes to, as the outlets' payloads name them.
type Recipient struct {
	DiscordID string `json:"discord_id"`
	Name      string `json:"name"`
}

// Chapter is one New Chapter in a Digest (and one entry of GET
// /api/chapters).
type Chapter struct {
	Site         string    `json:"site"`
	SeriesID     string    `json:"series_id"`
	Title        string    `json:"title"` // the Series' title
	Number       string    `json:"number"`
	ChapterTitle string    `json:"chapter_title"`
	URL          string    `json:"url"`
	SeenAt       time.Time `json:"seen_at"`
}

// Late is one reason chapters may be late: a Site's Lane paused, refusing
// or browser_down, or one failing Series (then SeriesID and Title name it);
// or the Reader's tracker waiting for a new token (State
// tracker_reconnect, Site the tracker's name).
type Late struct {
	Site     string    `json:"site"`
	State    string    `json:"state"`
	Since    time.Time `json:"since"`
	SeriesID string    `json:"series_id,omitempty"`
	Title    string    `json:"title,omitempty"`
}

// Offer is a Work's offer to follow another member instead of a failing
// one: POST /api/works/{work_id}/follow takes it, Progress carried.
type Offer struct {
	WorkID     int64     `json:"work_id"`
	Site       string    `json:"site"`
	SeriesID   string    `json:"series_id"`
	Title      string    `json:"title"`
	Since      time.Time `json:"since"`
	ToSite     string    `json:"to_site"`
	ToSeriesID string    `json:"to_series_id"`
	ToURL      string    `json:"to_url"`
}

// Digest is everything one Reader is told at once. It is stored as the
// delivery's payload when the Digest is made, so a retry sends the same.
type Digest struct {
	Reader   Recipient `json:"reader"`
	Chapters []Chapter `json:"chapters"`
	Late     []Late    `json:"late"`
	// Offers are "follow on {Site} instead" offers, each told once
	// (docs/adr/0021-works-link-by-ids.md, "Follow instead").
	Offers []Offer `json:"offers,omitempty"`
	// Status are the status changes of stories the Reader follows, each
	// told once (status.go).
	Status []StatusChange `json:"status,omitempty"`
	Test   bool           `json:"test,omitempty"` // a test notice from POST /api/me/notify/test
	// ReadLink is the signed "Mark read" URL of this delivery, set at send
	// time (never stored): POSTing it sets Progress to these chapters.
	ReadLink string `json:"-"`
	// WebhookID is the delivery's stored webhook-id (128 random bits, the
	// same on every retry), set at send time ("" for a test notice).
	WebhookID string `json:"-"`
}

// Headline is the Digest in one line: "3 new chapters: A 105, B 42, C 7".
func (d Digest) Headline() string {
	if d.Test {
		return "Test notice from mangabookmark"
	}
	n := len(d.Chapters)
	if n == 0 && len(d.Status) > 0 {
		return strings.TrimSuffix(d.Status[0].Line(), ".")
	}
	if n == 0 {
		for _, l := range d.Late {
			if l.State == "outlet_stopped" {
				return "Your " + outletTitle(l.Site) + " notices stopped"
			}
		}
		return "Notice from mangabookmark"
	}
	if n == 1 {
		c := d.Chapters[0]
		return fmt.Sprintf("New chapter: %s %s", c.Title, c.Number)
	}
	parts := make([]string, 0, 3)
	for i, c := range d.Chapters {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, c.Title+" "+c.Number)
	}
	return fmt.Sprintf("%d new chapters: %s", n, strings.Join(parts, ", "))
}

// Text is the Digest as plain lines: one per chapter, then the late part.
func (d Digest) Text() string {
	text, _ := d.TextWithin(-1, nil)
	return text
}

// TextWithin is Text in at most limit bytes (a negative limit: no bound):
// the test line and the late part whole, and as many chapter lines as fit
// in order, then more(n) as the last chapter line for the n left out. A
// Digest whose kept lines alone are over limit is cut on a rune boundary.
// It returns the text and how many chapters were left out.
func (d Digest) TextWithin(limit int, more func(n int) string) (string, int) {
	return d.textWithin(limit, func(s string) int { return len(s) }, more)
}

// textWithin is TextWithin with the text's size measured by size (bytes,
// or characters where a client counts those): size must add up over
// concatenation, as len and utf8.RuneCountInString do.
func (d Digest) textWithin(limit int, size func(string) int, more func(n int) string) (string, int) {
	var head, tail string
	if d.Test {
		head = "This is a test notice: this outlet works.\n"
	}
	tail = strings.TrimRight(d.StatusText()+d.LateText(), "\n")
	lines := make([]string, len(d.Chapters))
	for i, c := range d.Chapters {
		lines[i] = c.Title + " " + c.Number
		if c.ChapterTitle != "" {
			lines[i] += " (" + c.ChapterTitle + ")"
		}
		lines[i] += ": " + c.URL
	}
	join := func(ls []string) string {
		parts := append([]string{}, ls...)
		if tail != "" {
			parts = append(parts, tail)
		}
		return strings.TrimRight(head+strings.Join(parts, "\n"), "\n")
	}
	if all := join(lines); limit < 0 || size(all) <= limit {
		return all, 0
	}
	// size(k) is the text's length with the first k chapter lines and the
	// line saying how many more: found from the longest down, in one pass
	// over the prefix sums (a Digest may hold thousands of chapters).
	prefix := make([]int, len(lines)+1)
	for i, l := range lines {
		prefix[i+1] = prefix[i] + size(l) + 1
	}
	fixed := size(head)
	if tail != "" {
		fixed += size(tail) + 1
	}
	for k := len(lines) - 1; k >= 0; k-- {
		m := more(len(lines) - k)
		if prefix[k]+size(m)+fixed <= limit {
			return join(append(lines[:k:k], m)), len(lines) - k
		}
	}
	return clipBy(join([]string{more(len(lines))}), limit, size), len(lines)
}

// clipBy cuts s to at most limit as size measures it, on a rune boundary,
// marking the cut with "…" ("" when not even that fits).
func clipBy(s string, limit int, size func(string) int) string {
	if size(s) <= limit {
		return s
	}
	r := []rune(s)
	// the longest prefix that fits with its mark: size only grows with k
	k := sort.Search(len(r)+1, func(k int) bool { return size(string(r[:k])+"…") > limit }) - 1
	if k < 0 {
		return ""
	}
	return string(r[:k]) + "…"
}

// LateText is the degraded part: one line per "follow on {Site} instead"
// offer, then each late Site or failing Series named with "chapters there
// may be late"; "" when nothing is late.
func (d Digest) LateText() string {
	var b strings.Builder
	for _, o := range d.Offers {
		fmt.Fprintf(&b, "%s on %s has failed since %s: follow on %s instead, your Progress carried: %s\n",
			o.Title, o.Site, o.Since.UTC().Format("2006-01-02"), o.ToSite, o.ToURL)
	}
	for _, l := range d.Late {
		switch l.State {
		case "tracker_reconnect":
			fmt.Fprintf(&b, "Your %s token was refused (since %s): your reads here wait to reach %s until you connect it again in your settings.\n",
				trackerTitle(l.Site), l.Since.UTC().Format("2006-01-02 15:04 MST"), trackerTitle(l.Site))
		case "outlet_stopped":
			reason := l.Title
			if pkg, rest, ok := strings.Cut(reason, ": "); ok && !strings.Contains(pkg, " ") {
				reason = rest // the error's package word says nothing to a Reader
			}
			fmt.Fprintf(&b, "Your %s notices stopped at %s: %s. Set its URL again in your settings to start them.\n",
				outletTitle(l.Site), l.Since.UTC().Format("2006-01-02 15:04 MST"), strings.TrimSuffix(reason, "."))
		case "failing":
			fmt.Fprintf(&b, "%s on %s keeps failing to read since %s: chapters there may be late.\n", l.Title, l.Site, l.Since.UTC().Format("2006-01-02 15:04 MST"))
		default:
			fmt.Fprintf(&b, "%s is %s since %s: chapters there may be late.\n", l.Site, strings.ReplaceAll(l.State, "_", " "), l.Since.UTC().Format("2006-01-02 15:04 MST"))
		}
	}
	return b.String()
}

// trackerTitle is a tracker's name in a sentence.
func trackerTitle(service string) string {
	if service == "anilist" {
		return "AniList"
	}
	return service
}

// outletTitle is an outlet's name in a sentence.
func outletTitle(outlet string) string {
	switch outlet {
	case "push":
		return "browser push"
	case "discord":
		return "Discord"
	}
	return outlet
}

// FirstURL is the link a click opens: the first chapter's page.
func (d Digest) FirstURL() string {
	if len(d.Chapters) == 0 {
		return ""
	}
	return d.Chapters[0].URL
}
