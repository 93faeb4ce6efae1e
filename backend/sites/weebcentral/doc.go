// Package weebcentral reads WeebCentral's server-rendered HTML (plain
// route): title and cover from the Series page, the Latest Chapter from
// /series/{id}/full-chapter-list, which lists chapters newest first.
//
// Chapter numbers come from the row's label, whose word is the source's own
// ("Chapter 105.5", "Episode 139.5", "Navigation 67.5", "Suggestion 192"):
// sites.NumberFromName reads the number whatever the word. Rows without a
// number ("Epilogue") or naming something else ("Special 2") are skipped and
// counted in Facts.Skipped; "S2 Chapter 3" reads as 3. The first row that yields a number is the Latest Chapter,
// because the Site's own order is newest first (a season restart stays
// correct, where "highest number" would not). No such row: no_chapter.
package weebcentral
