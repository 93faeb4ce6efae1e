// Package natomanga reads the Natomanga/Mangakakalot family (MangaBox)
// through the browser route: the Series page /manga/{slug} for the title and
// cover, then, from inside that page, /api/manga/{slug}/chapters?limit=-1
// for the chapter list as JSON. A page starting "REDIRECT :" (the Site's
// moved marker) or an API answer with success false is not_found.
//
// Chapter numbers: the number the row's chapter_slug names when the slug
// reads "chapter-N[-M]" ("chapter-12-5" is 12.5, whatever chapter_num says;
// the live API may omit chapter_num, and the chapter URL is built from the
// slug, so the two always agree); else chapter_num, the Site's own number,
// when it is positive (so "S2 Chapter 3" with slug "s2-chapter-3" and
// number 203 reads as 203); else the number in chapter_name; rows with
// none ("Special 2" with chapter_num 0) are skipped and counted. The highest
// number wins. No usable row: no_chapter.
package natomanga
