// Package userscript embeds mangabookmark.user.js, the userscript Readers
// install in Tampermonkey or Violentmonkey, and renders it for one
// deployment: the update and download URLs, the @connect host and the
// default backend URL all come from PUBLIC_BASE_URL.
package userscript
