// Package tachibk reads a Mihon/Tachiyomi backup (.tachibk: a gzip'd
// protobuf written by kotlinx.serialization, also by TachiyomiSY, J2K,
// Komikku and Suwayomi) with protowire, taking only the fields an import
// needs and skipping every other field, so a fork's extra fields are
// harmless. It streams the file: one manga's message at a time is held,
// within fixed bounds (Limits), so a hostile file (a zip bomb, absurd
// lengths, junk) is refused with a reason and bounded memory. The field
// numbers follow Mihon's backup models (testdata/README.md cites them).
// It imports nothing of the project.
package tachibk
