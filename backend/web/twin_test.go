package web

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"mangabookmark/backend/store"
)

// The template twins of writeItems and failRowsHTML: the same markup as
// html/template writes it. The differential fuzz tests hold the
// hand-written escaping to html/template's: both outputs, tokenized, give
// the same elements, attributes and text.
var twins = template.Must(template.New("").Funcs(template.FuncMap{
	"site":    siteHref,
	"when":    when,
	"whenSet": whenSet,
	"path":    pathEscape,
}).Parse(`{{define "items"}}{{$csrf := .CSRF}}{{range .Items}}<li class="item" data-site="{{.Site}}" data-series-id="{{.SeriesID}}" data-new="{{if .New}}true{{else}}false{{end}}" data-key="{{.SearchKey}}">
{{if .CoverPath}}<img class="cover" src="{{.CoverPath}}" alt="Cover of {{.Title}}" width="64" height="90" loading="lazy">{{else}}<div class="cover" aria-hidden="true">{{.Initial}}</div>{{end}}
<div>
<h3><a href="{{site .URL}}" rel="noreferrer noopener">{{.Title}}</a>{{if .New}} <span class="badge new">New Chapter</span>{{end}}</h3>
<p class="meta">{{.Site}}{{if .Appeared}} · appeared {{.Appeared}}{{end}}</p>
{{if .LatestNumber}}<p class="chapter">Latest: <a href="{{site .LatestURL}}" rel="noreferrer noopener">Chapter {{.LatestNumber}}{{if .LatestTitle}}: {{.LatestTitle}}{{end}}</a></p>
{{end}}{{if .ProgressNumber}}<p class="meta">Read up to chapter {{.ProgressNumber}}</p>
{{else}}<p class="meta">Nothing read yet</p>
{{end}}{{if .AddedByRead}}<p><span class="badge read">added from a read</span> <span class="muted small">not added by you: remove it if you did not read it</span></p>
{{end}}{{if .Checking}}<p><span class="badge checking">checking…</span> <span class="muted small">its Lane has not read this Series yet</span></p>
{{end}}{{if .Failing}}<p class="failing">The Site could not be read since {{.Failing}}.</p>
{{end}}<div class="actions">
{{if .CanMark}}<form method="post" action="{{.ActionPath}}/read"><input type="hidden" name="csrf" value="{{$csrf}}"><button type="submit" aria-label="Mark read: {{.Title}}, up to chapter {{.LatestNumber}}">Mark read</button></form>
{{end}}<form method="post" action="{{.ActionPath}}/progress"><input type="hidden" name="csrf" value="{{$csrf}}"><label class="small">Read up to <input name="number" inputmode="decimal" size="6" required value="{{.ProgressNumber}}"></label><button type="submit" aria-label="Set progress: {{.Title}}">Set progress</button></form>
<form class="notify" method="post" action="{{.ActionPath}}/notify"><input type="hidden" name="csrf" value="{{$csrf}}"><label class="small">Notices <select name="mode" aria-label="Notices for {{.Title}}"><option value="each"{{if eq .NotifyMode "each"}} selected{{end}}>each chapter</option><option value="pile"{{if eq .NotifyMode "pile"}} selected{{end}}>in a pile</option><option value="off"{{if eq .NotifyMode "off"}} selected{{end}}>off</option></select></label> <label class="small">pile of <input name="pile" inputmode="numeric" size="3" value="{{.NotifyPile}}"></label> <label class="small">or days <input name="pile_days" inputmode="numeric" size="2" value="{{.NotifyPileDays}}"></label><button type="submit" aria-label="Save notices: {{.Title}}">Save</button></form>
<form method="post" action="{{.ActionPath}}/remove"><input type="hidden" name="csrf" value="{{$csrf}}"><button class="danger" type="submit" aria-label="Remove: {{.Title}}">Remove</button></form>
</div>
</div>
</li>
{{end}}{{end}}
{{define "failrows"}}{{$csrf := .CSRF}}{{$back := .Back}}{{range .Rows}}<tr data-site="{{.Site}}" data-series-id="{{.SeriesID}}">
<td class="title"><a href="{{site .URL}}" rel="noreferrer noopener">{{if .Title}}{{.Title}}{{else}}{{.SeriesID}}{{end}}</a></td><td>{{.Site}}</td><td class="fault-text">{{.Outcome}}</td><td>{{when .FailingSince}}</td><td>{{whenSet .LatestCheckedAt}}</td>
<td><form method="post" action="/admin/series/{{path .Site}}/{{path .SeriesID}}/force"><input type="hidden" name="csrf" value="{{$csrf}}"><input type="hidden" name="back" value="{{$back}}"><button type="submit" aria-label="Force: {{if .Title}}{{.Title}}{{else}}{{.SeriesID}}{{end}}">Force</button></form></td>
</tr>{{else}}<tr><td colspan="6" class="muted">No failing Series.</td></tr>{{end}}{{end}}`))

// siteHref is siteURL's filter without its escaping (the template
// escapes): an http(s) link with a host, else "#".
func siteHref(s string) string {
	if siteURL(s) == "#" {
		return "#"
	}
	return s
}

// dom tokenizes markup into one line per token: tags with their
// attributes (decoded; URL attributes normalized as html/template
// normalizes them) and text (decoded).
func dom(t testing.TB, markup string) []string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(markup))
	var out []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("tokenize: %v", z.Err())
			}
			return out
		case html.TextToken:
			out = append(out, "text "+fmt.Sprintf("%q", clean(string(z.Text()))))
		default:
			tok := z.Token()
			line := tok.Type.String() + " " + tok.Data
			for _, a := range tok.Attr {
				v := a.Val
				if a.Key == "href" || a.Key == "src" || a.Key == "action" {
					v = normURL(v)
				}
				line += fmt.Sprintf(" %s=%q", a.Key, clean(v))
			}
			out = append(out, line)
		}
	}
}

// clean maps what both escapers may spell differently yet a browser reads
// the same: NUL (html/template writes U+FFFD; the tokenizer reads NUL in
// text as U+FFFD too) and invalid UTF-8.
func clean(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

// normURL percent-encodes what html/template's URL normalizer encodes in
// an attribute (everything but RFC 3986's unreserved and reserved
// characters and a '%' that starts a valid escape), so a link the
// hand-written escaper leaves raw and one the template encodes compare
// equal, and nothing else does. It leaves the template's output as it is.
func normURL(s string) string {
	hex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~!#$&*+,/:;=?@[]", c) >= 0,
			c == '%' && i+2 < len(s) && hex(s[i+1]) && hex(s[i+2]):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	return b.String()
}

func sameDOM(t *testing.T, what, hand, twin string) {
	t.Helper()
	h, w := dom(t, hand), dom(t, twin)
	for i := 0; i < len(h) || i < len(w); i++ {
		var a, b string
		if i < len(h) {
			a = h[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			t.Fatalf("%s: the hand-written markup parts from html/template's at token %d:\nhand: %s\ntmpl: %s\n\nhand markup:\n%s\n\ntemplate markup:\n%s", what, i, a, b, hand, twin)
		}
	}
}

func FuzzItemsMatchTemplate(f *testing.F) {
	f.Add("Solo <b>Leveling</b>", "mangapill", "2", "https://mangapill.test/s/2?a=1&b=2", "9", "The \"Ninth\"", "8", "", "3 hours ago", "csrf-tok", uint8(3))
	f.Add(`"><script>alert(1)</script>`, `x" onmouseover="a()`, "1/../2", "javascript:alert(1)", "1e9", "</a><img src=x onerror=a()>", "", "2 Jan 2026", "", `"'&<>`, uint8(0xff))
	f.Add("", "", "", "HTTPS://Ex.test/ü ß'()", "", "", "", "", "", "", uint8(0))
	f.Fuzz(func(t *testing.T, title, site, id, link, latest, latestTitle, progress, failing, appeared, csrf string, flags uint8) {
		it := libraryItem{Site: site, SeriesID: id, Title: title, URL: link, LatestNumber: latest, LatestTitle: latestTitle,
			LatestURL: link + "/" + latest, ProgressNumber: progress, Failing: failing, Appeared: appeared,
			New: flags&1 != 0, Checking: flags&2 != 0, CanMark: flags&4 != 0, AddedByRead: flags&16 != 0,
			ActionPath: "/library/" + pathEscape(site) + "/" + pathEscape(id), SearchKey: strings.ToLower(title + " " + site),
			Initial: strings.ToUpper(string([]rune(title + "?")[:1]))}
		if flags&8 != 0 {
			it.CoverPath = "/covers/" + pathEscape(site) + "/" + pathEscape(id)
		}
		it.NotifyMode, it.NotifyPile, it.NotifyPileDays = []string{"each", "pile", "off", ""}[flags>>5&3], len(title), len(site)
		items := []libraryItem{it, it}
		items[1].New, items[1].CoverPath = !it.New, ""
		var hand strings.Builder
		writeItems(&hand, items, csrf)
		var twin strings.Builder
		if err := twins.ExecuteTemplate(&twin, "items", struct {
			Items []libraryItem
			CSRF  string
		}{items, csrf}); err != nil {
			t.Fatal(err)
		}
		sameDOM(t, "library items", hand.String(), twin.String())
	})
}

func FuzzFailRowsMatchTemplate(f *testing.F) {
	f.Add("A <i>title</i>", "weebcentral", "3", "https://weebcentral.test/s/3", "not_found", "csrf", "/admin/failing?site=weebcentral&outcome=errors", true, int64(0))
	f.Add("", `a"b`, "../x?y#z", "data:text/html,<script>", `"><svg onload=a()>`, `'"`, `/admin"><input name="back" value="//evil.test`, false, int64(-1))
	f.Fuzz(func(t *testing.T, title, site, id, link, outcome, csrf, back string, checked bool, secs int64) {
		since := admintestNow.Add(-timeSeconds(secs))
		row := store.AdminFailing{Site: site, SeriesID: id, Title: title, URL: link, Outcome: outcome, FailingSince: since}
		if checked {
			row.LatestCheckedAt = &since
		}
		for _, rows := range [][]store.AdminFailing{{row, row}, nil} {
			hand := string(failRowsHTML(rows, csrf, back))
			var twin strings.Builder
			if err := twins.ExecuteTemplate(&twin, "failrows", struct {
				Rows       []store.AdminFailing
				CSRF, Back string
			}{rows, csrf, back}); err != nil {
				t.Fatal(err)
			}
			sameDOM(t, "failing rows", hand, twin.String())
		}
	})
}

// admintestNow is a fixed instant for the fuzzed failing rows.
var admintestNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// timeSeconds is secs seconds, bounded to ±100 years so the row's time
// stays formattable.
func timeSeconds(secs int64) time.Duration {
	const lim = 100 * 366 * 24 * 3600
	secs %= lim
	return time.Duration(secs) * time.Second
}
