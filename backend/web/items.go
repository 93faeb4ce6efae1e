package web

import (
	"html"
	"io"
	"strings"
)

// writeItems writes the library's list items (into the page's stream). It is hand-written rather
// than a template range: html/template calls its escapers by reflection,
// some thirty times per item, which made a 2000-item library cost ~45 ms
// of CPU. Every value goes through esc (text and double-quoted attribute
// values alike) and every link taken from a Site through siteURL, which
// keeps only http and https URLs, so the output is as safe as the
// template's; TestLibraryEscapesHostileText holds it to that, and
// FuzzItemsMatchTemplate to html/template itself: a template twin of the
// same markup (twin_test.go) must give the same elements, attributes and
// text for any input.
func writeItems(b io.StringWriter, items []libraryItem, csrf string) {
	csrf = esc(csrf)
	for i := range items {
		it := &items[i]
		title := esc(it.Title)
		w := func(parts ...string) {
			for _, p := range parts {
				_, _ = b.WriteString(p)
			}
		}
		newAttr := "false"
		if it.New {
			newAttr = "true"
		}
		w(`<li class="item" data-site="`, esc(it.Site), `" data-series-id="`, esc(it.SeriesID), `" data-new="`, newAttr, `" data-key="`, esc(it.SearchKey), "\">\n")
		if it.CoverPath != "" {
			w(`<img class="cover" src="`, esc(it.CoverPath), `" alt="Cover of `, title, `" width="64" height="90" loading="lazy">`)
		} else {
			w(`<div class="cover" aria-hidden="true">`, esc(it.Initial), `</div>`)
		}
		w("\n<div>\n<h3><a href=\"", siteURL(it.URL), `" rel="noreferrer noopener">`, title, `</a>`)
		if it.New {
			w(` <span class="badge new">New Chapter</span>`)
		}
		w("</h3>\n<p class=\"meta\">", esc(it.Site))
		if it.Appeared != "" {
			w(` · appeared `, esc(it.Appeared))
		}
		w("</p>\n")
		if it.LatestNumber != "" {
			w(`<p class="chapter">Latest: <a href="`, siteURL(it.LatestURL), `" rel="noreferrer noopener">Chapter `, esc(it.LatestNumber))
			if it.LatestTitle != "" {
				w(`: `, esc(it.LatestTitle))
			}
			w("</a></p>\n")
		}
		if it.ProgressNumber != "" {
			w(`<p class="meta">Read up to chapter `, esc(it.ProgressNumber), "</p>\n")
		} else {
			w("<p class=\"meta\">Nothing read yet</p>\n")
		}
		if it.AddedByRead {
			w("<p><span class=\"badge read\">added from a read</span> <span class=\"muted small\">not added by you: remove it if you did not read it</span></p>\n")
		}
		if it.Checking {
			w("<p><span class=\"badge checking\">checking…</span> <span class=\"muted small\">its Lane has not read this Series yet</span></p>\n")
		}
		if it.Failing != "" {
			w(`<p class="failing">The Site could not be read since `, esc(it.Failing), ".</p>\n")
		}
		w("<div class=\"actions\">\n")
		action := esc(it.ActionPath)
		if it.CanMark {
			w(`<form method="post" action="`, action, `/read"><input type="hidden" name="csrf" value="`, csrf,
				`"><button type="submit" aria-label="Mark read: `, title, `, up to chapter `, esc(it.LatestNumber), "\">Mark read</button></form>\n")
		}
		w(`<form method="post" action="`, action, `/progress"><input type="hidden" name="csrf" value="`, csrf,
			`"><label class="small">Read up to <input name="number" inputmode="decimal" size="6" required value="`, esc(it.ProgressNumber),
			`"></label><button type="submit" aria-label="Set progress: `, title, `">Set progress</button></form>`+"\n")
		writeNotifyControl(w, action, csrf, title, it)
		w(`<form method="post" action="`, action, `/remove"><input type="hidden" name="csrf" value="`, csrf,
			`"><button class="danger" type="submit" aria-label="Remove: `, title, "\">Remove</button></form>\n</div>\n</div>\n</li>\n")
	}
}

// esc escapes text for an element body or a double-quoted attribute.
func esc(s string) string { return html.EscapeString(s) }

// siteURL is a link taken from a Site, escaped for an href: only absolute
// http and https URLs with a host pass; anything else (javascript:, data:,
// relative or scheme-relative) becomes "#". A prefix test rather than
// url.Parse: two parses per item were an eighth of the library's cost.
func siteURL(s string) string {
	rest, ok := cutPrefixFold(s, "https://")
	if !ok {
		rest, ok = cutPrefixFold(s, "http://")
	}
	if !ok || rest == "" || strings.ContainsAny(rest[:1], "/\\") {
		return "#"
	}
	return esc(s)
}

// cutPrefixFold is strings.CutPrefix, ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
