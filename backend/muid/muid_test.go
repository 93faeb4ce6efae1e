package muid

import (
	"errors"
	"strings"
	"testing"
)

// The pairs are the ones docs/sources.md ("Ids, MangaBaka and MangaUpdates") §1 quotes (read
// 2026-12-06): rmnzb04 and 60143657332 from mihonapp/mihon pull request
// #3776, z5e3xwc and 76513411164 from pymoe's base36Decode docstring,
// 6521 and 156244 (legacy) from a MangaDex wrapper's printout and
// infanf/myanili issue #46.
func TestParseForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, kind, value string
		legacyOnly       bool
	}{
		{"rmnzb04", Kind, "60143657332", false},
		{"RMNZB04", Kind, "60143657332", false},
		{" rmnzb04 ", Kind, "60143657332", false},
		{"60143657332", Kind, "60143657332", false},
		{"z5e3xwc", Kind, "76513411164", false},
		{"76513411164", Kind, "76513411164", false},
		{"3qzxncc", Kind, "8162824044", false},
		{"8162824044", Kind, "8162824044", false},
		{"1234567", Kind, "2302946863", false}, // seven digits: a URL id, read in base 36
		{"123456789", Kind, "123456789", false},
		{"12345678", Kind, "12345678", false}, // eight digits: what 01xxxxx writes
		// URL ids are zero-padded: 0rpf7qa is 1675287010, checked against
		// MangaUpdates' API by a public client's tests (code index id
		// 67381055114, with kljw00c 44838842124 and e401aci 30716877474).
		{"0rpf7qa", Kind, "1675287010", false},
		{"kljw00c", Kind, "44838842124", false},
		{"e401aci", Kind, "30716877474", false},
		{"0100000", Kind, "60466176", false},
		{"6521", KindLegacy, "6521", false},
		{"156244", KindLegacy, "156244", false},
		{"200591", KindLegacy, "200591", false},
		{"1", KindLegacy, "1", false},
		{"156244", KindLegacy, "156244", true},
	}
	for _, c := range cases {
		kind, value, err := Parse(c.raw, c.legacyOnly)
		if err != nil || kind != c.kind || value != c.value {
			t.Errorf("Parse(%q, %v) = %s %s %v, want %s %s", c.raw, c.legacyOnly, kind, value, err, c.kind, c.value)
		}
		// The canonical value is a fixed point: stored ids read the same again.
		if err == nil && !c.legacyOnly {
			k2, v2, err := Parse(value, kind == KindLegacy)
			if err != nil || k2 != kind || v2 != value {
				t.Errorf("Parse(%q) again = %s %s %v", value, k2, v2, err)
			}
		}
	}
}

func TestParseRefusesWithReason(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw        string
		legacyOnly bool
		want       string
	}{
		{"", false, "empty"},
		{"200592", false, "neither"}, // six digits above the legacy range: no form
		{"0000001", false, "below every URL id"},
		{"0012345", false, "below every URL id"},
		{"rmnzb0", false, "neither"}, // six characters
		{"rmnzb04x", false, "neither"},
		{"0rmnzb04", false, "starts with 0"},
		{"000006521", false, "starts with 0"},
		{"rmnz-04", false, "not a letter or digit"},
		{"rmnzb04\u0000", false, "not a letter or digit"},
		{"9223372036854775808", false, "past the largest"},
		{"123456789012345678901", false, "too long"},
		{"200592", true, "last pre-2022"},
		{"rmnzb04", true, "not digits"},
		{"60143657332", true, "last pre-2022"},
	}
	for _, c := range cases {
		_, _, err := Parse(c.raw, c.legacyOnly)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Reason, c.want) {
			t.Errorf("Parse(%q, %v) = %v, want a refusal saying %q", c.raw, c.legacyOnly, err, c.want)
		}
	}
}

// TestLegacyNeverANumber: no legacy id reads as an API number, and no API
// number or URL id reads as a legacy id, so the two never link.
func TestLegacyNeverANumber(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"6521", "156244", "200591", "4arz"} {
		kind, value, err := Parse(v, false)
		if v == "4arz" { // 200591 in base 36: four characters, no form
			if err == nil {
				t.Errorf("Parse(4arz) = %s %s, want a refusal", kind, value)
			}
			continue
		}
		if err != nil || kind != KindLegacy || value != v {
			t.Errorf("Parse(%q) = %s %s %v, want legacy", v, kind, value, err)
		}
	}
	if _, ok := URLID("156244"); ok {
		t.Errorf("URLID(156244) = ok, want a legacy id refused")
	}
}

func TestURLID(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]string{"60143657332": "rmnzb04", "76513411164": "z5e3xwc", "62535527613": "sq81dx9",
		"1675287010": "0rpf7qa", "60466176": "0100000"} {
		if got, ok := URLID(api); !ok || got != want {
			t.Errorf("URLID(%s) = %s %v, want %s", api, got, ok, want)
		}
	}
	for _, bad := range []string{"", "x", "6521", "9999999", "-60143657332", "060143657332", "99999999999999999999"} {
		if got, ok := URLID(bad); ok {
			t.Errorf("URLID(%q) = %s, want refused", bad, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"rmnzb04", "60143657332", "6521", "1234567", "", "zzzzzzzzzzzzz"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, raw string, legacyOnly bool) {
		kind, value, err := Parse(raw, legacyOnly)
		if err != nil {
			return
		}
		k2, v2, err := Parse(value, kind == KindLegacy)
		if err != nil || k2 != kind || v2 != value {
			t.Fatalf("Parse(%q) = %s %s, not a fixed point: %s %s %v", raw, kind, value, k2, v2, err)
		}
	})
}
