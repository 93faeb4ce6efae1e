package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/backend/api/client"
	"mangabookmark/tui/views"
)

// Init starts the first refresh and the refresh loop.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.fetch(), m.tick())
}

// Update routes messages: data and timers first, then keys to the prompt,
// the search box, the help, global keys and finally the active view.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.clampScroll()
		return m, nil
	case tickMsg:
		if m.inflight {
			return m, m.tick()
		}
		m.inflight = true
		return m, tea.Batch(m.fetch(), m.tick())
	case snapshotMsg:
		m.inflight = false
		m.apply(msg)
		return m, nil
	case actMsg:
		if msg.err != nil {
			m.flash, m.flashFault = msg.err.Error(), true
		} else {
			m.flash, m.flashFault = msg.text, false
		}
		m.inflight = true
		return m, m.fetch()
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

// apply takes in a refresh, keeping the selection on the same Lane and the
// same Series when they are still there.
func (m *Model) apply(s snapshotMsg) {
	now := m.opt.Now()
	if s.err != nil {
		if m.err == nil {
			m.errSince = now
		}
		m.err = s.err
		return
	}
	m.err = nil
	m.lastOK = now
	selSite := ""
	if m.laneSel < len(m.lanes) {
		selSite = m.lanes[m.laneSel].Site
	}
	m.lanes = s.lanes
	m.laneSel = 0
	for i, l := range m.lanes {
		if l.Site == selSite {
			m.laneSel = i
		}
	}
	m.failAll, m.failTotal = s.failing.Failing, s.failing.Total
	m.refilter()
	m.notices = s.notices
	if s.passesSite != "" && s.passesSite == m.detailSite {
		m.passes = s.passes
	}
	m.clampScroll()
}

// refilter rebuilds the shown worklist from the filter, keeping the
// selected Series selected.
func (m *Model) refilter() {
	var keySite, keyID string
	if m.failSel < len(m.failShown) {
		keySite, keyID = m.failShown[m.failSel].Site, m.failShown[m.failSel].SeriesID
	}
	q := strings.ToLower(m.filter.Search)
	if m.filter.Site == "" && m.filter.Outcome == "" && q == "" {
		m.failShown = m.failAll
	} else {
		m.failShown = m.filtered(q)
	}
	m.failSel = 0
	for i, r := range m.failShown {
		if r.SeriesID == keyID && r.Site == keySite {
			m.failSel = i
			break
		}
	}
}

// filtered returns the rows matching the site and outcome filters and the
// lower-cased search q.
func (m *Model) filtered(q string) []client.Failing {
	var out []client.Failing
	for _, r := range m.failAll {
		if m.filter.Site != "" && r.Site != m.filter.Site {
			continue
		}
		if m.filter.Outcome != "" && r.Outcome != m.filter.Outcome {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(r.Site+" "+r.SeriesID+" "+r.Title+" "+r.Outcome), q) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func (m *Model) clampScroll() {
	h := m.bodyHeight()
	m.laneSel = clamp(m.laneSel, len(m.lanes))
	m.failSel = clamp(m.failSel, len(m.failShown))
	m.laneOff = views.Scroll(m.laneSel, m.laneOff, views.LanesCapacity(h), len(m.lanes))
	m.failOff = views.Scroll(m.failSel, m.failOff, views.FailingCapacity(h), len(m.failShown))
	m.passOff = clamp(m.passOff, max(1, len(m.passes)-views.DetailCapacity(h)+1))
}

func clamp(i, n int) int {
	if i >= n {
		i = n - 1
	}
	return max(0, i)
}

func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.prompting && !m.filter.Searching {
		// Keys typed faster than the terminal is read arrive as one message;
		// take them one at a time so "1jjj" moves like 1, j, j, j.
		var cmds []tea.Cmd
		var next tea.Model = m
		for _, r := range msg.Runes {
			var cmd tea.Cmd
			next, cmd = next.(Model).key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			cmds = append(cmds, cmd)
		}
		return next, tea.Batch(cmds...)
	}
	if m.prompting {
		return m.promptKey(msg)
	}
	m.flash, m.flashFault = "", false
	if m.filter.Searching {
		return m.searchKey(msg)
	}
	km := m.km
	switch {
	case key.Matches(msg, km.Quit):
		return m, tea.Quit
	case key.Matches(msg, km.Help):
		m.help = !m.help
		return m, nil
	case m.help && key.Matches(msg, km.Back):
		m.help = false
		return m, nil
	case key.Matches(msg, km.Refresh):
		m.inflight = true
		return m, m.fetch()
	case key.Matches(msg, km.Lanes):
		return m.show(ScreenLanes)
	case key.Matches(msg, km.Failing):
		return m.show(ScreenFailing)
	case key.Matches(msg, km.Notices):
		return m.show(ScreenNotices)
	case key.Matches(msg, km.NextView):
		return m.show(map[Screen]Screen{ScreenLanes: ScreenFailing, ScreenDetail: ScreenFailing, ScreenFailing: ScreenNotices, ScreenNotices: ScreenLanes}[m.screen])
	case key.Matches(msg, km.PrevView):
		return m.show(map[Screen]Screen{ScreenLanes: ScreenNotices, ScreenDetail: ScreenNotices, ScreenFailing: ScreenLanes, ScreenNotices: ScreenFailing}[m.screen])
	case key.Matches(msg, km.Pause):
		if site, ok := m.selectedLane(); ok {
			m.prompting, m.promptSite, m.prompt = true, site, ""
		}
		return m, nil
	case key.Matches(msg, km.Resume):
		if site, ok := m.selectedLane(); ok {
			return m, m.resume(site)
		}
		return m, nil
	}
	m.help = false
	switch m.screen {
	case ScreenLanes:
		return m.lanesKey(msg)
	case ScreenDetail:
		return m.detailKey(msg)
	case ScreenFailing:
		return m.failingKey(msg)
	}
	return m, nil
}

func (m Model) show(v Screen) (tea.Model, tea.Cmd) {
	m.screen, m.help = v, false
	return m, nil
}

// move applies the movement keys to a selection of n rows.
func (m Model) move(msg tea.KeyMsg, sel, n, page int) int {
	km := m.km
	switch {
	case key.Matches(msg, km.Up):
		sel--
	case key.Matches(msg, km.Down):
		sel++
	case key.Matches(msg, km.PageUp):
		sel -= max(1, page)
	case key.Matches(msg, km.PageDown):
		sel += max(1, page)
	case key.Matches(msg, km.Top):
		sel = 0
	case key.Matches(msg, km.Bottom):
		sel = n - 1
	}
	return clamp(sel, n)
}

func (m Model) lanesKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.km.Open) && m.laneSel < len(m.lanes) {
		m.screen, m.detailSite, m.passes, m.passOff = ScreenDetail, m.lanes[m.laneSel].Site, nil, 0
		m.inflight = true
		return m, m.fetch()
	}
	m.laneSel = m.move(msg, m.laneSel, len(m.lanes), views.LanesCapacity(m.bodyHeight()))
	m.clampScroll()
	return m, nil
}

func (m Model) detailKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.km.Back) {
		m.screen = ScreenLanes
		return m, nil
	}
	m.passOff = m.move(msg, m.passOff, len(m.passes), views.DetailCapacity(m.bodyHeight()))
	m.clampScroll()
	return m, nil
}

func (m Model) failingKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	km := m.km
	switch {
	case key.Matches(msg, km.Search):
		m.filter.Searching = true
		return m, nil
	case key.Matches(msg, km.Back):
		m.filter.Search = ""
		m.refilter()
	case key.Matches(msg, km.SiteFilter):
		names := make([]string, len(m.lanes))
		for i, l := range m.lanes {
			names[i] = l.Site
		}
		m.filter.Site = cycle(m.filter.Site, names)
		m.refilter()
	case key.Matches(msg, km.OutcomeFilter):
		m.filter.Outcome = cycle(m.filter.Outcome, client.Outcomes)
		m.refilter()
	case key.Matches(msg, km.Force):
		if m.failSel < len(m.failShown) {
			r := m.failShown[m.failSel]
			return m, m.force(r.Site, r.SeriesID)
		}
	default:
		m.failSel = m.move(msg, m.failSel, len(m.failShown), views.FailingCapacity(m.bodyHeight()))
	}
	m.clampScroll()
	return m, nil
}

// cycle steps "" → opts[0] → ... → opts[n-1] → "".
func cycle(cur string, opts []string) string {
	for i, o := range opts {
		if o == cur {
			if i+1 < len(opts) {
				return opts[i+1]
			}
			return ""
		}
	}
	if cur == "" && len(opts) > 0 {
		return opts[0]
	}
	return ""
}

func (m Model) searchKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEnter:
		m.filter.Searching = false
	case tea.KeyEsc:
		m.filter.Searching, m.filter.Search = false, ""
	case tea.KeyBackspace:
		if r := []rune(m.filter.Search); len(r) > 0 {
			m.filter.Search = string(r[:len(r)-1])
		}
	case tea.KeyRunes:
		m.filter.Search += string(msg.Runes)
	case tea.KeySpace: // a terminal's space also carries the rune ' ': add it once
		m.filter.Search += " "
	case tea.KeyCtrlC:
		return m, tea.Quit
	default:
		return m, nil
	}
	m.refilter()
	m.clampScroll()
	return m, nil
}

func (m Model) promptKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEnter:
		d, reason, err := parsePrompt(m.prompt)
		if err != nil {
			m.flash, m.flashFault = err.Error(), true
			return m, nil
		}
		m.prompting = false
		return m, m.pause(m.promptSite, d, reason)
	case tea.KeyEsc:
		m.prompting = false
	case tea.KeyBackspace:
		if r := []rune(m.prompt); len(r) > 0 {
			m.prompt = string(r[:len(r)-1])
		}
	case tea.KeyRunes:
		if len(m.prompt) < 200 {
			m.prompt += string(msg.Runes)
		}
	case tea.KeySpace:
		m.prompt += " "
	case tea.KeyCtrlC:
		return m, tea.Quit
	}
	return m, nil
}
