// Package web serves the server-rendered pages for people in a browser:
// the Readers' library at / (one card per story: a Work's members share
// one card), their Updates at /updates (updates.go: New Chapters across
// the library by day, driven by the library's keys), the Series and Work
// pages, and the Owner's status pages under /admin
// (docs/adr/0009-web-pages-and-sessions.md). Pages are html/template with
// embedded CSS and a few lines of plain JavaScript; there is no build step.
// A page authenticates by the mb_session cookie only, and every POST
// carries the page's csrf field. The JSON API stays Bearer-only.
//
// The settings page also holds the Trackers card (trackers.go), over the
// Trackers interface the tracker sync service implements, and the
// trackers' Connect flow (trackers_oauth.go): a state bound to the
// session by trackers.States, checked and taken once at the callback
// before any code is exchanged. Only an error that implements Refusal
// shows its words to the Reader. The Phone sync card (phonesync.go) makes,
// rotates and revokes the Reader's sync key over the SyncKeys interface
// the token service implements, and shows the key once.
//
// Templates: templates/layout.html is the one skeleton ("layout": the
// "top" partial, the page's "content" block, the "bottom" partial);
// templates/partials/ holds one shared template a file (top, bottom,
// lanecard, failtable); templates/pages/NAME.html is one page and defines
// "content". To add a page, add its file and call
// h.render(w, r, status, "NAME", page{…}); templates.go parses each page
// into its own clone of the layout and partials. Helpers (funcs in
// templates.go) take typed arguments. Static files are linked with
// {{static "style.css"}}, which names the content's fingerprint
// (static.go); they are served immutable under that name only.
package web
