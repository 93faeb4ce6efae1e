package lanes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"mangabookmark/backend/ownernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// ownerWindow is how long a fault must have lasted before the Owner is
// told. Every age it is compared with is derived from poll_passes and
// poll_failures, never stored.
const ownerWindow = 12 * time.Hour

// Notices is the Manager's Evaluator.
var _ Evaluator = (*Notices)(nil)

// sidecarSubject is the subject of the one notice that is about no Site.
const sidecarSubject = "browser sidecar"

// Notices evaluates the four owner-notice conditions at the end of every
// Lane pass and keeps owner_notices in step: a row per open episode,
// deleted when the condition clears, and one message per episode through
// the notifier. It is safe for concurrent use by all Lanes.
type Notices struct {
	st           *store.Store
	send         ownernotice.Func
	baseURL      string
	browserSites []string
	log          *slog.Logger
}

// NoticesConfig configures the evaluator. A zero field means the default
// its comment names.
type NoticesConfig struct {
	// Store holds owner_notices and the pass rows judged. Required.
	Store *store.Store
	// Sites is every registry Site: the sidecar condition spans the
	// browser ones.
	Sites []*sites.Site
	// Send delivers a message; nil records episodes (the dashboard shows
	// them) but sends nothing.
	Send ownernotice.Func
	// BaseURL is PUBLIC_BASE_URL, the root of every deep link: an absolute
	// http(s) URL, or "" for embeds without a link.
	BaseURL string
	// Log receives evaluation errors; nil discards.
	Log *slog.Logger
}

// NewNotices returns the evaluator, or an error naming the NoticesConfig
// field that cannot work (no Store, a BaseURL that is not an absolute
// http(s) URL).
func NewNotices(cfg NoticesConfig) (*Notices, error) {
	if cfg.Store == nil {
		return nil, errors.New("lanes: NoticesConfig.Store is nil: the notices need the store")
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("lanes: NoticesConfig.BaseURL %q: want an absolute http(s) URL or empty", cfg.BaseURL)
		}
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	n := &Notices{st: cfg.Store, send: cfg.Send, baseURL: strings.TrimRight(cfg.BaseURL, "/"), log: log}
	for _, s := range cfg.Sites {
		if s.Browser {
			n.browserSites = append(n.browserSites, s.Name)
		}
	}
	return n, nil
}

// verdict is what one evaluation decides about one (kind, site) row.
type verdict int

const (
	verdictHold  verdict = iota // leave the row as it is (no evidence either way)
	verdictClear                // the condition does not hold: delete the row
	verdictOpen                 // the condition holds: keep a row, tell the Owner once
)

// Evaluate runs after the pass's poll_passes row is written, on every
// return path of the pass. A store error is logged and ends the part of
// the evaluation that needed it; it never reaches the Lane.
func (n *Notices) Evaluate(ctx context.Context, site *sites.Site, now time.Time) {
	if ctx.Err() != nil {
		return // shutting down: the next start evaluates again
	}
	log := n.log.With("site", site.Name)
	cutoff := now.Add(-ownerWindow)

	stall, err := n.st.NoticeStallRun(ctx, site.Name)
	switch {
	case err != nil:
		log.Error("owner notices: evaluate", "kind", ownernotice.KindStall, "error", err)
	case stall.LastSkip == SkipPaused:
		// A pause is the Owner's own act: the Site's episodes neither open
		// nor close while it lasts.
	default:
		n.stall(ctx, log, site, stall, now, cutoff)
		n.noBrowserRoute(ctx, log, site, now, cutoff)
		n.adapterBroken(ctx, log, site, now, cutoff)
	}
	if site.Browser {
		// The sidecar episode belongs to no Site; its log lines name the
		// Site whose Lane judged it.
		n.sidecarDown(ctx, log, now, cutoff)
	}
}

// noBrowserRoute: a Site without a browser route has answered no read
// since a refusing pass at least ownerWindow old, and is refusing still
// (its gate is in force or it refused within the window). A browser Site
// refusing is not a fault: it never opens this kind.
func (n *Notices) noBrowserRoute(ctx context.Context, log *slog.Logger, site *sites.Site, now, cutoff time.Time) {
	v := verdictClear
	var r store.RefusalRun
	if !site.Browser {
		var err error
		if r, err = n.st.NoticeRefusalRun(ctx, site.Name); err != nil {
			log.Error("owner notices: evaluate", "kind", ownernotice.KindNoBrowserRoute, "error", err)
			return
		}
		current := r.Passes > 0 && ((r.RefuseUntil != nil && r.RefuseUntil.After(now)) || !r.Last.Before(cutoff))
		if current && !r.Since.After(cutoff) {
			v = verdictOpen
		}
	}
	n.apply(ctx, log, now, v, ownernotice.KindNoBrowserRoute, site.Name, func() ownernotice.Notice {
		return ownernotice.Notice{
			Subject:  site.Name,
			DeepLink: n.link(ownernotice.PagePath(ownernotice.KindNoBrowserRoute, site.Name)),
			Description: fmt.Sprintf("%s has refused every read for %s and has no browser route, so none of its Series is polled; it needs a deploy that fixes its plain route or moves it to the browser route.",
				site.Name, client.FormatDuration(now.Sub(*r.Since))),
		}
	})
}

// adapterBroken: more than half of the Site's Series hold failure rows of
// one and the same outcome (not_found, no_chapter, unfetchable or errors)
// at least ownerWindow old. One failing Series is that Series; most of a
// Site failing the same way is a layout or API change, repaired by a
// deploy. A share, not a count; a Site with no Series never qualifies.
func (n *Notices) adapterBroken(ctx context.Context, log *slog.Logger, site *sites.Site, now, cutoff time.Time) {
	r, err := n.st.NoticeFailureShare(ctx, site.Name, cutoff)
	if err != nil {
		log.Error("owner notices: evaluate", "kind", ownernotice.KindAdapterBroken, "error", err)
		return
	}
	// broken is the threshold, in one place: more than half the Series.
	broken := func(failing int) bool { return r.Series > 0 && 2*failing > r.Series }
	v := verdictClear
	if broken(r.Failing) {
		// The first count that qualifies dates the episode: (Series+1)/2
		// rows, or one more.
		if broken((r.Series + 1) / 2) {
			r.Since = r.AtHalf
		}
		if r.Since != nil {
			v = verdictOpen
		}
	}
	n.apply(ctx, log, now, v, ownernotice.KindAdapterBroken, site.Name, func() ownernotice.Notice {
		return ownernotice.Notice{
			Subject:  site.Name,
			DeepLink: n.link(ownernotice.PagePath(ownernotice.KindAdapterBroken, site.Name)),
			Description: fmt.Sprintf("%d of %d %s Series have failed with `%s` (%s) for %s, so the Site has likely changed its pages or API: check one with `mangabookmark probe <Series URL> --save DIR`, then update the %s adapter (docs/operations.md, \"When a Site changes\").",
				r.Failing, r.Series, site.Name, r.Outcome, waveMeaning(r.Outcome), client.FormatDuration(now.Sub(*r.Since)), site.Name),
		}
	})
}

// waveMeaning says in a few words what a failure outcome means when most
// of a Site shows it.
func waveMeaning(outcome string) string {
	switch outcome {
	case string(sites.NotFound):
		return "the Site says the Series is gone"
	case string(sites.NoChapter):
		return "no Latest Chapter found on the page"
	case string(sites.Unfetchable):
		return "answers the adapter cannot read"
	case string(sites.Errors):
		return "transport errors, timeouts or server errors"
	}
	return "the same failure"
}

// sidecarDown: the browser Sites hold Series, and every browser pass that
// tried the sidecar since the latest one that reached it failed, the first
// of them at least ownerWindow ago. With no failed attempt inside the
// window (every browser Lane asleep or paused) there is no fresh evidence:
// the row is held as it is.
func (n *Notices) sidecarDown(ctx context.Context, log *slog.Logger, now, cutoff time.Time) {
	r, err := n.st.NoticeSidecarRun(ctx, n.browserSites)
	if err != nil {
		log.Error("owner notices: evaluate", "kind", ownernotice.KindSidecarDown, "error", err)
		return
	}
	v := verdictClear
	switch {
	case r.Series == 0 || r.Passes == 0:
	case r.Last.Before(cutoff):
		v = verdictHold
	case !r.Since.After(cutoff):
		v = verdictOpen
	}
	n.apply(ctx, log, now, v, ownernotice.KindSidecarDown, "", func() ownernotice.Notice {
		return ownernotice.Notice{
			Subject:  sidecarSubject,
			DeepLink: n.link(ownernotice.PagePath(ownernotice.KindSidecarDown, "")),
			Description: fmt.Sprintf("No browser Lane has reached the browser sidecar for %s, so %s are not polled; restart the sidecar and check BROWSER_WS_URL.",
				client.FormatDuration(now.Sub(*r.Since)), joinSiteNames(n.browserSites)),
		}
	})
}

// apply carries out a verdict on the (kind, site) row. build is called only
// when a message is about to be sent.
func (n *Notices) apply(ctx context.Context, log *slog.Logger, now time.Time, v verdict, kind, site string, build func() ownernotice.Notice) {
	log = log.With("kind", kind)
	switch v {
	case verdictHold:
		return
	case verdictClear:
		closed, err := n.st.CloseNotice(ctx, kind, site)
		if err != nil {
			log.Error("owner notices: close episode", "error", err)
		} else if closed {
			log.Info("owner notice episode closed")
		}
		return
	}
	created, err := n.st.OpenNotice(ctx, kind, site, now)
	if err != nil {
		log.Error("owner notices: open episode", "error", err)
		return
	}
	if created {
		log.Info("owner notice episode opened")
	}
	if n.send == nil {
		return
	}
	sent, err := n.st.NotifyNotice(ctx, kind, site, now, func(ctx context.Context) error {
		msg := build()
		msg.Kind, msg.Site, msg.At = kind, site, now
		return n.send(ctx, msg)
	})
	switch {
	case err != nil:
		log.Warn("owner notice not sent; the next pass retries", "error", err)
	case sent:
		log.Info("owner notice sent")
	}
}

// link builds a deep link under PUBLIC_BASE_URL, or "" without one.
func (n *Notices) link(path string) string {
	if n.baseURL == "" {
		return ""
	}
	return n.baseURL + path
}

// joinSiteNames lists names as "a, b and c".
func joinSiteNames(names []string) string {
	switch len(names) {
	case 0:
		return "the browser Sites"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
