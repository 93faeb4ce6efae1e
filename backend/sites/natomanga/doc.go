// Package natomanga reads the Natomanga/Mangakakalot family (MangaBox)
// through the browser route: the Series page /manga/{slug} for the title and
// cover, then, from inside that page, /api/manga/{slug}/chapters?limit=-1
// for the chapter list as JSON. A page starting "REDIRECT :" (the Site's
// moved marker) or an API answer with success false is not_found.
//
// Chapter numbers: chapter_num, the Site's own number, when it is positive
// (so "S2 Chapter 3" numbered 203 by the Site reads as 203, in step with the
// Site's order and chapter URLs); else the "Chapter N" in chapter_name; rows
// with neither ("Special 2" with chapter_num 0) are skipped. The highest
// number wins. No usable row: no_chapter.
package natomanga
