package web

import (
	"html/template"
	"strings"
	"time"

	"mangabookmark/backend/store"
)

// failRowsHTML writes the failing worklist's table rows, with the same
// checked escaping as writeItems and for the same reason: html/template's
// reflective escapers made a 200-row page six times its JSON endpoint.
// FuzzFailRowsMatchTemplate holds it to its template twin (twin_test.go).
//
// A row's Force opens its question (GET …/force, forceAsk): Force asks
// once before it acts, so the row carries no form token.
func failRowsHTML(rows []store.AdminFailing, back string, now time.Time) template.HTML {
	if len(rows) == 0 {
		return `<tr><td colspan="6" class="muted">No failing Series.</td></tr>`
	}
	var b strings.Builder
	b.Grow(len(rows) * 700)
	back = esc(back)
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
			`</td><td class="fault-text">`, esc(r.Outcome), `</td><td>`, string(relTime(now, r.FailingSince)), `</td><td>`, string(relTimeSet(now, r.LatestCheckedAt)), "</td>\n",
			`<td><form method="get" action="/admin/series/`, esc(pathEscape(r.Site)), `/`, esc(pathEscape(r.SeriesID)),
			`/force"><input type="hidden" name="back" value="`, back,
			`"><button type="submit" aria-label="Force: `, name, "\">Force…</button></form></td>\n</tr>",
		} {
			b.WriteString(p)
		}
	}
	// Every value above went through esc (text and attributes) or siteURL
	// (links: http(s) only, escaped); hostile_test.go feeds it markup and
	// javascript: links.
	return template.HTML(b.String()) //nolint:gosec // G203: built from escaped parts only, see above

}
