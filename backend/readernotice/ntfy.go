package readernotice

import (
	"context"
	"net/http"
	"strings"
)

// ntfy POSTs the Digest to the Reader's ntfy topic URL: the chapter list as
// the body, with Title, Click (the first chapter) and Actions headers (an
// "Open" of the first chapter and a "Mark read" that POSTs the delivery's
// signed read link, which sets Progress to the Digest's chapters).
type ntfy struct {
	client  *http.Client
	baseURL string
}

func (ntfy) Name() string { return "ntfy" }

func (ntfy) Targets(r Reader) []string {
	if r.Settings.NtfyURL == "" {
		return nil
	}
	return []string{""}
}

func (n ntfy) Send(ctx context.Context, r Reader, _ string, d Digest) error {
	h := http.Header{}
	h.Set("Title", headerSafe(d.Headline()))
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Tags", "books")
	var actions []string
	if u := d.FirstURL(); u != "" {
		h.Set("Click", headerSafe(u))
		actions = append(actions, "view, Open, "+actionSafe(u))
	}
	switch {
	case d.ReadLink != "":
		actions = append(actions, "http, Mark read, "+actionSafe(d.ReadLink)+", method=POST, clear=true")
	case n.baseURL != "":
		actions = append(actions, "view, Library, "+actionSafe(strings.TrimRight(n.baseURL, "/")+"/"))
	}
	if len(actions) > 0 {
		h.Set("Actions", strings.Join(actions, "; "))
	}
	return post(ctx, n.client, r.Settings.NtfyURL, h, []byte(d.Text()))
}

// headerSafe drops what would break a header line (Site text is already
// clean, but a header must never carry CR or LF).
func headerSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, s)
}

// actionSafe keeps a URL from ending an ntfy action early (',' and ';'
// separate fields and actions).
func actionSafe(s string) string {
	return strings.NewReplacer(",", "%2C", ";", "%3B").Replace(headerSafe(s))
}
