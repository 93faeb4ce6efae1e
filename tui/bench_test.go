package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"mangabookmark/client"
)

// BenchmarkWorklistRender10k measures one dashboard frame of the failing
// worklist holding 10k rows at 140x40: a key press (move down) and the
// View that follows, which is what the Owner waits for.
func BenchmarkWorklistRender10k(b *testing.B) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	rows := make([]client.Failing, 10_000)
	sites := []string{"kagane", "comix", "mangadex", "weebcentral", "mangapill", "natomanga"}
	for i := range rows {
		checked := now.Add(-time.Duration(i) * time.Second)
		rows[i] = client.Failing{Site: sites[i%6], SeriesID: fmt.Sprint(i), Title: fmt.Sprintf("A fairly long series title number %d", i),
			URL: "https://example.test/" + fmt.Sprint(i), Outcome: client.Outcomes[i%4],
			FailingSince: now.Add(-time.Duration(10_000-i) * time.Minute), LatestCheckedAt: &checked}
	}
	m := New(Options{Now: func() time.Time { return now }})
	m = stepB(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	m = stepB(m, snapshotMsg{failing: client.FailingResponse{Failing: rows, Total: len(rows)}})
	m = stepB(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	down := tea.KeyMsg{Type: tea.KeyDown}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = stepB(m, down)
		if m.failList.sel == len(rows)-1 {
			m.failList.sel = 0
		}
		_ = m.View()
	}
}

// BenchmarkWorklistRefresh10k measures taking in a refresh of 10k rows
// (re-filtering and keeping the selection) plus the frame after it.
func BenchmarkWorklistRefresh10k(b *testing.B) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	rows := make([]client.Failing, 10_000)
	for i := range rows {
		rows[i] = client.Failing{Site: "weebcentral", SeriesID: fmt.Sprint(i), Title: "t", Outcome: "errors",
			FailingSince: now.Add(-time.Duration(i) * time.Minute)}
	}
	m := New(Options{Now: func() time.Time { return now }})
	m = stepB(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	m = stepB(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	snap := snapshotMsg{failing: client.FailingResponse{Failing: rows, Total: len(rows)}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = stepB(m, snap)
		_ = m.View()
	}
}

func stepB(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}
