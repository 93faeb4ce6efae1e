package tui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
	"mangabookmark/tui/views"
)

// View lays out the tab bar, the banner when the server is not answering,
// the active view and the footer, always exactly the terminal's height.
func (m Model) View() string {
	h := m.bodyHeight()
	f := m.frame(h)
	var body string
	switch {
	case m.help:
		body = views.Help(f, m.km, m.opt.Demo.LoginURL != "")
	case m.screen == ScreenDetail:
		body = views.Detail(f, m.detailLane(), m.passes, m.passList.sel)
	case m.screen == ScreenFailing:
		body = views.Failing(f, m.failShown, m.failList.sel, m.failList.off, m.filter, len(m.failAll), m.failTotal)
	case m.screen == ScreenNotices:
		body = views.Notices(f, m.notices, m.works)
	default:
		body = views.Lanes(f, m.lanes, m.laneList.sel, m.laneList.off,
			views.Attention{Notices: m.notices, Failing: m.failAll, FailTotal: m.failTotal})
	}
	parts := []string{m.tabs()}
	if m.opt.Demo.LoginURL != "" {
		parts = append(parts, views.DemoLinks(f, m.opt.Demo.LoginURL, m.opt.Demo.WebURL, m.km.CopyLink.Help().Key))
	}
	if m.err != nil {
		parts = append(parts, views.Banner(f, m.errText(), m.errSince, m.lastOK))
	}
	parts = append(parts, body, m.footer())
	return strings.Join(parts, "\n")
}

func (m Model) detailLane() client.Lane {
	for _, l := range m.lanes {
		if l.Site == m.detailSite {
			return l
		}
	}
	return client.Lane{Site: m.detailSite, State: "unknown"}
}

func (m Model) errText() string {
	var apiErr *client.APIError
	switch {
	case errors.Is(m.err, client.ErrUnreachable):
		return "cannot reach " + m.opt.Client.Server()
	case errors.As(m.err, &apiErr):
		return "the server said no: " + safetext.Show(apiErr.Message)
	}
	return m.err.Error()
}

func (m Model) tabs() string {
	s := m.st
	faults := 0
	for _, l := range m.lanes {
		if views.StatePaint(l.State) == views.PaintFault {
			faults++
		}
	}
	tab := func(n, name string, active bool, count string) string {
		label := n + " " + name + count
		if active {
			return s.TabActive.Render(label)
		}
		return s.Tab.Render(label)
	}
	lanesLabel := ""
	if faults > 0 {
		lanesLabel = fmt.Sprintf(" (%d!)", faults)
	}
	line := s.Title.Render("mangabookmark") + "  " +
		tab("1", "Lanes", m.screen == ScreenLanes || m.screen == ScreenDetail, lanesLabel) + "  " +
		tab("2", "Failing", m.screen == ScreenFailing, fmt.Sprintf(" (%d)", m.failTotal)) + "  " +
		tab("3", "Notices", m.screen == ScreenNotices, fmt.Sprintf(" (%d)", len(m.notices)))
	right := "connecting…"
	if !m.lastOK.IsZero() {
		right = "updated " + views.Human(m.opt.Now().Sub(m.lastOK)) + " ago"
	}
	gap := m.width - ansi.StringWidth(line) - len([]rune(right))
	if gap < 2 {
		return ansi.Truncate(line, m.width, "…")
	}
	return line + strings.Repeat(" ", gap) + s.Dim.Render(right)
}
