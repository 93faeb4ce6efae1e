package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/client"
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
	case copiedMsg:
		m.flash, m.flashFault = "login link copied to the clipboard (if the terminal allows it; it is shown above to select); it works once", false
		return m, nil
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
	if m.laneList.sel < len(m.lanes) {
		selSite = m.lanes[m.laneList.sel].Site
	}
	m.lanes = s.lanes
	m.laneList.sel = 0
	for i, l := range m.lanes {
		if l.Site == selSite {
			m.laneList.sel = i
		}
	}
	m.failAll, m.failTotal = s.failing.Failing, s.failing.Total
	m.refilter()
	m.notices = s.notices
	m.works = s.works
	if s.passesSite != "" && s.passesSite == m.detailSite {
		m.passes = s.passes
	}
	m.clampScroll()
}

// refilter rebuilds the shown worklist from the filter, keeping the
// selected Series selected.
func (m *Model) refilter() {
	var keySite, keyID string
	if m.failList.sel < len(m.failShown) {
		keySite, keyID = m.failShown[m.failList.sel].Site, m.failShown[m.failList.sel].SeriesID
	}
	q := strings.ToLower(m.filter.Search)
	if m.filter.Site == "" && m.filter.Outcome == "" && q == "" {
		m.failShown = m.failAll
	} else {
		m.failShown = m.filtered(q)
	}
	m.failList.sel = 0
	for i, r := range m.failShown {
		if r.SeriesID == keyID && r.Site == keySite {
			m.failList.sel = i
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
	m.laneList.fit(len(m.lanes), views.LanesCapacity(h))
	m.failList.fit(len(m.failShown), views.FailingCapacity(h))
	m.passList.scroll(len(m.passes), views.DetailCapacity(h))
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
	case m.opt.Demo.LoginURL != "" && key.Matches(msg, km.CopyLink):
		return m, m.copyLink()
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

func (m Model) lanesKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.km.Open) && m.laneList.sel < len(m.lanes) {
		m.screen, m.detailSite, m.passes, m.passList = ScreenDetail, m.lanes[m.laneList.sel].Site, nil, list{}
		m.inflight = true
		return m, m.fetch()
	}
	m.laneList.move(m.km, msg, len(m.lanes), views.LanesCapacity(m.bodyHeight()))
	m.clampScroll()
	return m, nil
}

func (m Model) detailKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.km.Back) {
		m.screen = ScreenLanes
		return m, nil
	}
	m.passList.move(m.km, msg, len(m.passes), views.DetailCapacity(m.bodyHeight()))
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
		if m.failList.sel < len(m.failShown) {
			r := m.failShown[m.failList.sel]
			return m, m.force(r.Site, r.SeriesID)
		}
	default:
		m.failList.move(m.km, msg, len(m.failShown), views.FailingCapacity(m.bodyHeight()))
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
	switch editLine(&m.filter.Search, msg) {
	case editDone:
		m.filter.Searching = false
	case editCancel:
		m.filter.Searching, m.filter.Search = false, ""
	case editQuit:
		return m, tea.Quit
	case editOther:
		return m, nil
	}
	m.refilter()
	m.clampScroll()
	return m, nil
}

func (m Model) promptKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch editLine(&m.prompt, msg) {
	case editDone:
		d, reason, err := parsePrompt(m.prompt)
		if err != nil {
			m.flash, m.flashFault = err.Error(), true
			return m, nil
		}
		m.prompting = false
		return m, m.pause(m.promptSite, d, reason)
	case editCancel:
		m.prompting = false
	case editQuit:
		return m, tea.Quit
	}
	return m, nil
}
