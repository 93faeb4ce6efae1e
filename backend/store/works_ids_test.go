package store_test

import (
	"errors"
	"strings"
	"testing"

	"mangabookmark/backend/store"
)

// Each MangaUpdates form is stored as the one canonical id; the pairs are
// docs/sources.md ("Ids, MangaBaka and MangaUpdates", read 2026-12-06): rmnzb04 is
// 60143657332 (mihonapp/mihon PR #3776), 156244 a legacy id (infanf/myanili
// issue #46).
func TestCanonicalExternalID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ kind, value, wantKind, wantValue string }{
		{"mu", "rmnzb04", "mu", "60143657332"},
		{"mu", "RMNZB04", "mu", "60143657332"},
		{"mu", "60143657332", "mu", "60143657332"},
		{"mu", "156244", "mu_legacy", "156244"},
		{"mu_legacy", "156244", "mu_legacy", "156244"},
		{"al", "030002", "al", "30002"},
		{"md", "A1C7C817-4E59-43B7-9365-09675A149A6F", "md", "a1c7c817-4e59-43b7-9365-09675a149a6f"},
	} {
		got, err := store.CanonicalExternalID(store.ExternalID{Kind: c.kind, Value: c.value, Source: store.IDFromReader})
		if err != nil || got.Kind != c.wantKind || got.Value != c.wantValue {
			t.Errorf("%s %s: %+v %v, want %s %s", c.kind, c.value, got, err, c.wantKind, c.wantValue)
		}
	}
	for _, c := range []struct{ kind, value, want string }{
		{"mu", "rmnzb0", "not an id of kind mu:"},
		{"mu", "300000", "7-character URL id"},
		{"mu_legacy", "rmnzb04", "not an id of kind mu_legacy:"},
		{"mu_legacy", "200592", "200591"},
		{"al", "abc", "AniList's number"},
		{"kt", "one-piece", "not its slug"},
		{"md", "../x", "MangaDex UUID"},
		{"ap", "x", "mu_legacy"}, // the kinds are listed
	} {
		_, err := store.CanonicalExternalID(store.ExternalID{Kind: c.kind, Value: c.value, Source: store.IDFromReader})
		var ie *store.IDError
		if !errors.As(err, &ie) || !strings.Contains(ie.Reason, c.want) {
			t.Errorf("%s %q: %v, want a refusal saying %q", c.kind, c.value, err, c.want)
		}
	}
}

// Two Series carrying one story's MangaUpdates id in different forms (the
// URL id on one Site's page, the API number from another) link; a legacy
// id never links to a number, even the story's own (myanili #46's pair:
// legacy 156244 is sq81dx9, 62535527613).
func TestMixedMangaUpdatesFormsLink(t *testing.T) {
	t.Parallel()
	w := newNoticeWorld(t)
	r := w.reader("1")
	for _, s := range []string{"mangadex", "comix", "mangapill", "weebcentral"} {
		w.bookmark(r, s, "a", t0)
	}
	w.readWith("mangadex", "a", "10", t0, nil, mu("rmnzb04"))
	w.readWith("comix", "a", "10", t0, nil, mu("60143657332"))
	if wa, wb := w.workOf("mangadex", "a"), w.workOf("comix", "a"); wa == 0 || wa != wb {
		t.Fatalf("rmnzb04 and 60143657332: Works %d and %d, want one", wa, wb)
	}
	// The API number, named by a Reader, links in that Reader's library.
	if err := w.st.NameSeriesID(w.ctx, r, "mangapill", "a", store.ExternalID{Kind: "mu", Value: "60143657332"}); err != nil {
		t.Fatal(err)
	}
	if got, err := w.st.ReaderWorkOf(w.ctx, r, "mangapill", "a"); err != nil || got != w.workOf("mangadex", "a") {
		t.Fatalf("the API number: Work %d (%v), want %d", got, err, w.workOf("mangadex", "a"))
	}
	w.bookmark(r, "mangadex", "b", t0)
	w.readWith("weebcentral", "a", "10", t0, nil, mu("156244"))
	w.readWith("mangadex", "b", "10", t0, nil, mu("sq81dx9"))
	if got := w.workOf("weebcentral", "a"); got != 0 {
		t.Fatalf("a legacy id linked into Work %d", got)
	}
	var kind, value string
	if err := w.st.Pool().QueryRow(w.ctx, `SELECT kind, value FROM series_ids WHERE site = 'weebcentral'`).Scan(&kind, &value); err != nil || kind != "mu_legacy" || value != "156244" {
		t.Fatalf("weebcentral's id %s %s (%v), want mu_legacy 156244", kind, value, err)
	}
}
