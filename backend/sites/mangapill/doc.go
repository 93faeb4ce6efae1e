// Package mangapill reads MangaPill's server-rendered Series page (plain
// route, with the Referer the Site expects): title and lazy-loaded cover
// (img[data-src]) from the Series block (the div.container holding the
// cover; the site header's own h1 is never the title) and the chapter list
// under #chapters, newest first. The Site gives no chapter dates.
//
// Chapter numbers come from the link text ("Chapter 1183.5") through
// sites.NumberFromName. Links without a number ("Special 2") are skipped
// and counted; "S2 Chapter 3" reads as 3. The
// first link that yields a number is the Latest Chapter (the Site's order
// is newest first). No such link, or no #chapters: no_chapter.
package mangapill
