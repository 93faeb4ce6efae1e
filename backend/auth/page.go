package auth

import (
	"html/template"
	"net/http"

	"mangabookmark/backend/userscript"
)

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}} · mangabookmark</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222;background:#fafafa}
h1{font-size:1.4rem}
code,.token{font-family:ui-monospace,monospace}
.token{display:block;padding:.75rem;background:#fff;border:1px solid #ccc;border-radius:6px;word-break:break-all;user-select:all}
ol li{margin:.3rem 0}
.note{color:#666;font-size:.9rem}
</style></head><body>
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{if .Token}}
<p>Your API token, shown this once:</p>
<code class="token" id="token">{{.Token}}</code>
<ol>
<li>Install the userscript from <a href="` + userscript.Path + `">` + userscript.Path + `</a> (Tampermonkey or Violentmonkey) if you have not yet.</li>
<li>Open any page of one of the Sites, open your userscript manager's menu (its toolbar icon) and choose <b>Set token…</b> under mangabookmark.</li>
<li>Paste the token into that dialog: it is the browser's own, which the Site's page cannot read. Never paste it into a page.</li>
</ol>
{{if .Session}}<p><a href="/">Open your library</a></p>{{end}}
<p class="note">Keep the token private: it is your password here. Logging in again makes a new one; ask the Owner to revoke a lost one.</p>
{{else}}
<p><a href="` + LoginPath + `">Log in with Discord</a></p>
{{end}}
</body></html>`))

type pageData struct {
	Title, Message, Token string
	Session               bool // a web session was started: link the library
}

func (o *OAuth) page(w http.ResponseWriter, status int, title, msg, token string) {
	o.pageWith(w, status, pageData{Title: title, Message: msg, Token: token})
}

func (o *OAuth) pageWith(w http.ResponseWriter, status int, d pageData) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	if err := pageTmpl.Execute(w, d); err != nil {
		o.log.Warn("oauth page render failed", "error", err)
	}
}

func (o *OAuth) tokenPage(w http.ResponseWriter, name, token string, session bool) {
	o.pageWith(w, http.StatusOK, pageData{Title: "Welcome, " + name, Message: "You are logged in to mangabookmark.", Token: token, Session: session})
}
