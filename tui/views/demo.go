package views

import (
	"mangabookmark/backend/safetext"
)

// DemoLinks is the demo's two lines above every screen: the library's URL
// and the key that copies the login link, then the Owner's one-time
// login URL alone on its line, unstyled, so it can be selected whole.
func DemoLinks(f Frame, login, web, copyKey string) string {
	s := f.S
	head := s.Header.Render(" demo") + s.Dim.Render(" · library ") + safetext.Show(web) +
		s.Dim.Render(" · the Owner logs in once at ("+copyKey+" copies it):")
	return fit(head, f.Width) + "\n" + fit(" "+safetext.Show(login), f.Width)
}
