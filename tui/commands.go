package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// snapshotMsg is one refresh's answer.
type snapshotMsg struct {
	lanes      []client.Lane
	failing    client.FailingResponse
	notices    []client.Notice
	works      *client.AdminWorks // nil from a server without the Works' counts
	passes     []client.Pass
	passesSite string
	err        error
}

// tickMsg asks for the next refresh.
type tickMsg struct{}

// actMsg is the answer to a force, pause or resume.
type actMsg struct {
	text string
	err  error
}

func (m Model) tick() tea.Cmd {
	return tea.Tick(m.opt.Refresh, func(time.Time) tea.Msg { return tickMsg{} })
}

// fetch reads everything the screens show in one go, so a frame never
// mixes two refreshes.
func (m Model) fetch() tea.Cmd {
	c, limit, site, plimit := m.opt.Client, m.opt.FailingLimit, m.detailSite, m.opt.PassesLimit
	if m.screen != ScreenDetail {
		site = ""
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		var out snapshotMsg
		if out.lanes, out.err = c.Lanes(ctx); out.err != nil {
			return out
		}
		if out.failing, out.err = c.Failing(ctx, client.FailingFilter{Limit: limit}); out.err != nil {
			return out
		}
		if out.notices, out.err = c.Notices(ctx); out.err != nil {
			return out
		}
		// A server from before Works has no counts of them: the notices
		// screen then shows none, and the rest of the dashboard works.
		if w, err := c.AdminWorks(ctx); err == nil {
			out.works = &w
		}
		if site != "" {
			out.passesSite = site
			out.passes, out.err = c.Passes(ctx, site, plimit)
		}
		return out
	}
}

func (m Model) force(site, id string) tea.Cmd {
	c := m.opt.Client
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		if _, err := c.Force(ctx, site, id); err != nil {
			return actMsg{err: fmt.Errorf("force %s/%s: %w", site, id, err)}
		}
		return actMsg{text: fmt.Sprintf("forced a poll of %s/%s; the Lane was woken", site, id)}
	}
}

func (m Model) pause(site string, d time.Duration, reason string) tea.Cmd {
	c := m.opt.Client
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		if _, err := c.Pause(ctx, site, d, reason); err != nil {
			return actMsg{err: fmt.Errorf("pause %s: %w", site, err)}
		}
		return actMsg{text: fmt.Sprintf("paused %s for %s", site, views.Human(d))}
	}
}

func (m Model) resume(site string) tea.Cmd {
	c := m.opt.Client
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		l, err := c.Resume(ctx, site)
		if err != nil {
			return actMsg{err: fmt.Errorf("resume %s: %w", site, err)}
		}
		return actMsg{text: fmt.Sprintf("resumed %s; it is %s", site, l.State)}
	}
}

// parsePrompt splits "2h30m moving mirror" into a duration and a reason.
func parsePrompt(s string) (time.Duration, string, error) {
	dur, reason, _ := strings.Cut(strings.TrimSpace(s), " ")
	d, err := client.ParseDuration(dur)
	return d, strings.TrimSpace(reason), err
}

// copiedMsg says the login link went to the clipboard.
type copiedMsg struct{}

// copyLink puts the demo's login link on the terminal's clipboard.
func (m Model) copyLink() tea.Cmd {
	copyText, link := m.opt.Copy, m.opt.Demo.LoginURL
	return func() tea.Msg {
		copyText(link)
		return copiedMsg{}
	}
}
