package web

import (
	"html/template"
	"strings"

	"mangabookmark/backend/store"
)

// failRowsHTML writes the failing worklist's table rows, with the same
// checked escaping as writeItems and for the same reason: html/template's
// reflective escapers made a 200-row page six times its JSON endpoint.
// FuzzFailRowsMatchTemplate holds it to its template twin (twin_test.go).
func failRowsHTML(rows []store.AdminFailing, csrf, back string) template.HTML {
	if len(rows) == 0 {
		return `<tr><td colspan="6" class="muted">No failing Series.</td></tr>`
	}
	var b strings.Builder
	b.Grow(len(rows) * 700)
	csrf, back = esc(csrf), esc(back)
	for _, r := range rows {
		name := r.Title
		if name == "" {
			name = r.SeriesID
		}
		name = esc(name)
		site, id := esc(r.Site), esc(r.SeriesID)
		for _, p := range []string{
			`<tr data-site="`, site, `" data-series-id="`, id, "\">\n",
			`<td class="title"><a href="`, siteURL(r.URL), `" rel="noreferrer noopener">`, name, `</a></td><td>`, site,
			`</td><td class="fault-text">`, esc(r.Outcome), `</td><td>`, when(r.FailingSince), `</td><td>`, whenSet(r.LatestCheckedAt), "</td>\n",
			`<td><form method="post" action="/admin/series/`, esc(pathEscape(r.Site)), `/`, esc(pathEscape(r.SeriesID)),
			`/force"><input type="hidden" name="csrf" value="`, csrf, `"><input type="hidden" name="back" value="`, back,
			`"><button type="submit" aria-label="Force: `, name, "\">Force</button></form></td>\n</tr>",
		} {
			b.WriteString(p)
		}
	}
	return template.HTML(b.String())
}
