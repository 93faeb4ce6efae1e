package web

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

//go:embed templates static
var files embed.FS

// funcs are the templates' helpers; each takes the type it shows, so a
// template that passes the wrong thing fails at its first render in the
// tests rather than showing nothing.
var funcs = template.FuncMap{
	"path":     pathEscape,
	"when":     when,
	"whenSet":  whenSet,
	"rel":      relTime,
	"relSet":   relTimeSet,
	"dur":      dur,
	"secs":     func(d time.Duration) int64 { return int64(d / time.Second) },
	"failed":   func(p store.Pass) int { return p.NotFound + p.NoChapter + p.Unfetchable + p.Errors },
	"card":     card,
	"failrows": failRowsHTML,
	"rows": func(rows []store.AdminFailing, total, limit int, back string, now time.Time) failTable {
		return failTable{Rows: rows, Total: total, Cap: limit, Back: back, Now: now}
	},
	"digestMin": func(sec int) string { return strconv.FormatFloat(float64(sec)/60, 'f', -1, 64) },
	"static":    staticPath,
	"fault":     client.IsFault,
	"cardArgs":  func(it libraryItem, csrf string) cardArgs { return cardArgs{It: it, CSRF: csrf} },
	"actsArgs":  func(csrf, back string) actsArgs { return actsArgs{CSRF: csrf, Back: back} },
	"workOffer": workOffer,
	// states.go
	"readingStates": func() []string { return store.ReadingStates },
	"stateWord":     stateWord,
	"statusWord":    statusWord,
}

// cardArgs is what the card partial renders: one card and the form token.
type cardArgs struct {
	It   libraryItem
	CSRF string
}

// actsArgs is what the acts partial renders: the form token and the
// page's own address (safeBack), every card's "back".
type actsArgs struct {
	CSRF, Back string
}

// pages holds one template set per page: the layout and the partials,
// cloned, with the page's own file (templates/pages/NAME.html, which
// defines "content") parsed into the clone. Adding a page is adding its
// file; render(…, "NAME", …) finds it.
var pages = parsePages()

func parsePages() map[string]*template.Template {
	base := template.Must(template.New("").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/partials/*.html"))
	names, err := fs.Glob(files, "templates/pages/*.html")
	if err != nil || len(names) == 0 {
		panic(fmt.Sprintf("web: no page templates (%v)", err))
	}
	out := make(map[string]*template.Template, len(names))
	for _, n := range names {
		t := template.Must(template.Must(base.Clone()).ParseFS(files, n))
		out[strings.TrimSuffix(path.Base(n), ".html")] = t
	}
	return out
}

// executePage writes the page name whole: the layout around its content.
func executePage(w io.Writer, name string, p page) error {
	t, ok := pages[name]
	if !ok {
		return fmt.Errorf("web: no page template %q", name)
	}
	return t.ExecuteTemplate(w, "layout", p)
}

// laneCard is one Lane with what its forms carry.
type laneCard struct {
	L          client.Lane
	CSRF, Back string
	Now        time.Time // its times are said relative to it
}

func card(l client.Lane, csrf, back string, now time.Time) laneCard {
	return laneCard{L: l, CSRF: csrf, Back: back, Now: now}
}

// failTable is the failing worklist with where its Force returns to.
type failTable struct {
	Rows       []store.AdminFailing
	Total, Cap int
	Back       string
	Now        time.Time // its times are said relative to it
}
