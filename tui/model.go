package tui

import (
	"time"

	"github.com/muesli/termenv"

	"mangabookmark/client"
	"mangabookmark/tui/keymap"
	"mangabookmark/tui/styles"
	"mangabookmark/tui/views"
)

// Options configure the dashboard.
type Options struct {
	Client       *client.Client
	Now          func() time.Time // the clock relative times are measured against
	Refresh      time.Duration    // how often to refresh; default 3s
	FailingLimit int              // worklist rows asked of the server; default 5000
	PassesLimit  int              // passes shown in a Lane's detail; default 60
	// Demo, when its LoginURL is set, shows the demo's login link and
	// library URL above every screen, and the CopyLink key copies the link.
	Demo Demo
	// Copy puts text on the terminal's clipboard; nil writes the OSC 52
	// escape to standard output (the terminal-native way, over SSH too).
	Copy func(text string)
}

// Demo is what `make demo` hands the dashboard: the Owner's one-time web
// login URL and the library's URL.
type Demo struct {
	LoginURL, WebURL string
}

// demoLines is how many lines the demo's links take above the views.
const demoLines = 2

// Screen is one screen of the dashboard (Model.View renders the active one).
type Screen int

// The dashboard's screens.
const (
	ScreenLanes Screen = iota
	ScreenDetail
	ScreenFailing
	ScreenNotices
)

// Model is the root model: the last data the server sent, the selection
// and the screen. It routes keys to the active view.
type Model struct {
	opt Options
	km  keymap.KeyMap
	st  styles.Styles

	width, height int
	screen        Screen
	help          bool

	lanes    []client.Lane
	laneList list

	detailSite string
	passes     []client.Pass
	passList   list // scroll position only

	failAll   []client.Failing
	failTotal int
	failShown []client.Failing
	failList  list
	filter    views.FailingFilter

	notices []client.Notice
	works   *client.AdminWorks

	err      error
	errSince time.Time
	lastOK   time.Time
	inflight bool

	prompt     string // the pause prompt's text, edited by editLine like the search (bubbles/textinput would pull in a clipboard dependency)
	prompting  bool
	promptSite string

	flash      string
	flashFault bool
}

// New returns the dashboard model; Init starts the refresh loop.
func New(opt Options) Model {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Refresh <= 0 {
		opt.Refresh = 3 * time.Second
	}
	if opt.FailingLimit <= 0 {
		opt.FailingLimit = 5000
	}
	if opt.PassesLimit <= 0 {
		opt.PassesLimit = 60
	}
	if opt.Copy == nil {
		opt.Copy = termenv.Copy
	}
	return Model{opt: opt, km: keymap.Default(), st: styles.Default(), width: 80, height: 24}
}

// selectedLane returns the Lane the pause and resume keys act on.
func (m Model) selectedLane() (string, bool) {
	switch m.screen {
	case ScreenDetail:
		return m.detailSite, m.detailSite != ""
	case ScreenFailing:
		if m.failList.sel < len(m.failShown) {
			return m.failShown[m.failList.sel].Site, true
		}
	case ScreenLanes:
		if m.laneList.sel < len(m.lanes) {
			return m.lanes[m.laneList.sel].Site, true
		}
	}
	return "", false
}

func (m Model) frame(h int) views.Frame {
	return views.Frame{Width: m.width, Height: h, Now: m.opt.Now(), S: m.st}
}

// bodyHeight is the height left for the active view: the tab bar, the
// banner when shown and the footer take the rest.
func (m Model) bodyHeight() int {
	h := m.height - 2
	if m.err != nil {
		h--
	}
	if m.opt.Demo.LoginURL != "" {
		h -= demoLines
	}
	return max(1, h)
}
