// Package releasefeed reads MangaUpdates' daily release list (`GET
// /v1/releases/days`) every 10 minutes and turns it into hints: a release
// whose series id is the MangaUpdates id (kind mu) of a followed Series
// makes that Series, and the other members of its Work, due at once on
// every Site, exactly as a Site's listing hints (ADR 0015): through
// store.HintSeries, never writing a Latest Chapter. The Lanes read what it
// hinted at their own Gap; the feed itself makes no Site request.
//
// One process reads each interval (a claim on the release_feed row); a
// failed read backs off, keeps what it learnt and never stops the Lanes
// (docs/adr/0030-release-feed-hints.md).
package releasefeed
