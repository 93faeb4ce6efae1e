// Package comix reads Comix through the browser route: the route opens the
// title page (passing any challenge) and returns its HTML, whose
// <script id="initial-data"> JSON holds the page's prefetched queries: the
// details entry (key containing "detail": title, poster) and the chapter
// list entry (key containing "chapters": items with id, number, name,
// createdAt). The shape is taken from the research and must be re-checked
// against the live Site; it changes often.
//
// Series ids are the whole "{hid}-{slug}" path segment, since the page is
// only reachable with it; URLs giving only the hid yield the bare hid.
//
// Chapter numbers: an item's "number" (a JSON number or numeric string) is
// used; items without a usable one ("Special 2" with a null number) are
// skipped. The highest number wins. createdAt is read when it is a Unix time
// or RFC 3339 string; the relative "3 h ago" form is not parsed.
package comix
