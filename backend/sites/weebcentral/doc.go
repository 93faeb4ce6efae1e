// Package weebcentral reads WeebCentral's server-rendered HTML (plain
// route): title and cover from the Series page, the Latest Chapter from
// /series/{id}/full-chapter-list, which lists chapters newest first.
//
// Chapter numbers come from the row's name ("Chapter 105.5"). Rows whose
// name has no "Chapter N" ("Special 2", "Oneshot") are skipped; "S2 Chapter
// 3" reads as 3. The first row that yields a number is the Latest Chapter,
// because the Site's own order is newest first (a season restart stays
// correct, where "highest number" would not). No such row: no_chapter.
package weebcentral
