package readernotice

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// NtfyMessageMax is ntfy's message limit in bytes, its server's default
// message-size-limit (DefaultMessageSizeLimit in ntfy's server/config.go).
// ntfy reads at most that many bytes of a body and takes it as a message
// only when it read fewer: a body of 4096 bytes or more becomes an
// attachment, or is refused with 400 "attachments not allowed" by a server
// without an attachment cache (the default). So a body is kept under it.
const NtfyMessageMax = 4096

// ntfy POSTs the Digest to the Reader's ntfy topic URL: the chapter list as
// the body, with Title, Click (the first chapter) and Actions headers (an
// "Open" of the first chapter and a "Mark read" that POSTs the delivery's
// signed read link, which sets Progress to the Digest's chapters). A
// Digest too long for one ntfy message lists the chapters that fit and
// "… and N more" with the library's URL, which Click then opens.
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
	library := strings.TrimRight(n.baseURL, "/") + "/"
	body, left := d.TextWithin(NtfyMessageMax-1, func(k int) string {
		return fmt.Sprintf("… and %d more: %s", k, library)
	})
	h := http.Header{}
	h.Set("Title", headerSafe(d.Headline()))
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Tags", "books")
	var actions []string
	if u := d.FirstURL(); u != "" {
		h.Set("Click", headerSafe(u))
		actions = append(actions, "view, Open, "+actionSafe(u))
	}
	if left > 0 {
		h.Set("Click", headerSafe(library))
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
	return post(ctx, n.client, r.Settings.NtfyURL, h, []byte(body))
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
