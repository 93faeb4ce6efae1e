package cli

import (
	"mangabookmark/backend/api/client"
)

// stateColor maps a Lane state to the palette: faults red, holds amber,
// quiet states dim, work calm.
func stateColor(state string) string {
	switch state {
	case client.StateRefusing, client.StateBrowserDown, client.StateNoBrowser:
		return ansiFault
	case client.StatePaused:
		return ansiWarn
	case client.StateIdle, client.StateAsleep, client.StateDisabled:
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
