// Package styles is the dashboard's one styles struct: a dark, calm
// palette in which the fault colour #cf5c4d is the only red.
package styles

import "github.com/charmbracelet/lipgloss"

// Palette colours.
const (
	Fault  = lipgloss.Color("#cf5c4d") // faults, and only faults
	Hold   = lipgloss.Color("#d6aa62") // held back on purpose: paused, not notified yet
	Calm   = lipgloss.Color("#78aa8c") // working as meant
	Accent = lipgloss.Color("#7f9cc4") // selection, active tab
	Text   = lipgloss.Color("#c8ccd4")
	Dim    = lipgloss.Color("#7a7f88")
	Panel  = lipgloss.Color("#2a2e36")
)

// Styles is every style the dashboard uses.
type Styles struct {
	App        lipgloss.Style
	Title      lipgloss.Style
	Tab        lipgloss.Style
	TabActive  lipgloss.Style
	Header     lipgloss.Style // table header row
	Row        lipgloss.Style
	Selected   lipgloss.Style // the selected row
	Dim        lipgloss.Style
	Calm       lipgloss.Style
	Hold       lipgloss.Style
	Fault      lipgloss.Style
	Banner     lipgloss.Style // the unreachable banner
	Flash      lipgloss.Style // a one-line result of the last act
	Prompt     lipgloss.Style
	HelpKey    lipgloss.Style
	HelpDesc   lipgloss.Style
	Footer     lipgloss.Style
	Sparkline  lipgloss.Style
	SparkFault lipgloss.Style
}

// Default returns the dark calm theme.
func Default() Styles {
	return Styles{
		App:        lipgloss.NewStyle().Foreground(Text),
		Title:      lipgloss.NewStyle().Foreground(Accent).Bold(true),
		Tab:        lipgloss.NewStyle().Foreground(Dim),
		TabActive:  lipgloss.NewStyle().Foreground(Accent).Bold(true).Underline(true),
		Header:     lipgloss.NewStyle().Foreground(Dim).Bold(true),
		Row:        lipgloss.NewStyle().Foreground(Text),
		Selected:   lipgloss.NewStyle().Background(Panel).Foreground(Text).Bold(true),
		Dim:        lipgloss.NewStyle().Foreground(Dim),
		Calm:       lipgloss.NewStyle().Foreground(Calm),
		Hold:       lipgloss.NewStyle().Foreground(Hold),
		Fault:      lipgloss.NewStyle().Foreground(Fault),
		Banner:     lipgloss.NewStyle().Foreground(lipgloss.Color("#1b1d22")).Background(Fault).Bold(true),
		Flash:      lipgloss.NewStyle().Foreground(Calm),
		Prompt:     lipgloss.NewStyle().Foreground(Accent).Bold(true),
		HelpKey:    lipgloss.NewStyle().Foreground(Accent).Bold(true),
		HelpDesc:   lipgloss.NewStyle().Foreground(Text),
		Footer:     lipgloss.NewStyle().Foreground(Dim),
		Sparkline:  lipgloss.NewStyle().Foreground(Calm),
		SparkFault: lipgloss.NewStyle().Foreground(Fault),
	}
}
