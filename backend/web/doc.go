// Package web serves the server-rendered pages for people in a browser:
// the Readers' library at / and the Owner's status pages under /admin
// (docs/adr/0009-web-pages-and-sessions.md). Pages are html/template with
// embedded CSS and a few lines of plain JavaScript; there is no build step.
// A page authenticates by the mb_session cookie only, and every POST
// carries the page's csrf field. The JSON API stays Bearer-only.
package web
