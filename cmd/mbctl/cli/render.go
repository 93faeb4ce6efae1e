package cli

import (
	"mangabookmark/tui/views"
)

// stateColor is the colour of a Lane state word, on the dashboard's
// palette (views.StatePaint): faults red, holds amber, quiet states dim,
// work calm.
func stateColor(state string) string {
	switch views.StatePaint(state) {
	case views.PaintFault:
		return ansiFault
	case views.PaintHold:
		return ansiWarn
	case views.PaintDim:
		return ansiDim
	}
	return ansiCalm
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
