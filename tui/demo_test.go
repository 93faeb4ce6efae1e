package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
)

const (
	demoLogin = "http://127.0.0.1:8080/login/once/Zq3V1x7Yk0bM2n9Rt4Uw6Ep8As5Df1Gh3Jk7Lz0Xc2"
	demoWeb   = "http://127.0.0.1:8080/"
)

// withDemo is m showing the demo's links, its copies going nowhere.
func withDemo(m Model) Model {
	m.opt.Demo = Demo{LoginURL: demoLogin, WebURL: demoWeb}
	m.opt.Copy = func(string) {}
	return m
}

// The demo's dashboard shows the login link whole on its own line (at 80
// columns too, so it can be selected) and the library's URL, on every
// screen, within the terminal's height; c copies the link (OSC 52 through
// Options.Copy) and says so; the help lists c. Without the demo nothing
// of it shows and c does nothing.
func TestDemoLoginLink(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	clock := &testClock{t: admintest.Now}
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		base := loaded(t, f, clock, size[0], size[1])
		var copied []string
		m := base
		m.opt.Demo = Demo{LoginURL: demoLogin, WebURL: demoWeb}
		m.opt.Copy = func(s string) { copied = append(copied, s) }
		m.clampScroll()
		for _, screen := range []string{"1", "2", "3", "?"} {
			v := keys(t, m, screen).View()
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d screen %s: %d lines", size[0], size[1], screen, len(lines))
			}
			plain := ansi.Strip(v)
			if !strings.Contains(plain, " "+demoLogin) || !strings.Contains(plain, demoWeb) {
				t.Errorf("%dx%d screen %s lacks the links:\n%s", size[0], size[1], screen, plain)
			}
		}
		if help := ansi.Strip(keys(t, m, "?").View()); !strings.Contains(help, "copy login link") {
			t.Errorf("the help does not list c:\n%s", help)
		}
		next, cmd := m.Update(keyMsg(m.km.CopyLink))
		if cmd == nil {
			t.Fatal("c started nothing")
		}
		next, _ = next.(Model).Update(cmd())
		if len(copied) != 1 || copied[0] != demoLogin {
			t.Errorf("copied %q", copied)
		}
		if foot := ansi.Strip(next.(Model).footer()); !strings.Contains(foot, "login link copied") {
			t.Errorf("footer after c: %q", foot)
		}
		if v := ansi.Strip(base.View()); strings.Contains(v, "login") {
			t.Errorf("without the demo the dashboard names a login link:\n%s", v)
		}
		if _, cmd := base.Update(keyMsg(base.km.CopyLink)); cmd != nil {
			t.Error("c does something outside the demo")
		}
	}
}
