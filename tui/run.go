package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Run shows the dashboard on the terminal until the Owner quits or ctx
// ends. noColor (the NO_COLOR convention) draws it without colour.
func Run(ctx context.Context, opt Options, noColor bool) error {
	if noColor {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	p := tea.NewProgram(New(opt), tea.WithAltScreen(), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}
