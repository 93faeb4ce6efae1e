// Package backuppb is the protobuf model of the backup a Mihon-based phone
// app syncs (backup.proto, written from the apps' Kotlin models; README.md
// names the files and commits). The .proto is embedded and compiled once
// at run time with protocompile; messages are dynamicpb messages, so the
// merge and the tests read and compare every field of every manga,
// chapter, category, tracking row and history entry without generated
// code, and fields this model does not name travel through untouched as
// unknown fields.
package backuppb
