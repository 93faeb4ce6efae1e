package sites

import (
	"strings"
	"testing"
)

func TestParseNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{{"12", "12"}, {"012", "12"}, {"105.5", "105.5"}, {"12.50", "12.5"},
		{"0", "0"}, {"0.0", "0"}, {" 7 ", "7"}, {"999999", "999999"}, {"1.2345", "1.2345"}} { // spaces around are trimmed
		if got, ok := ParseNumber(c.in); !ok || got != c.want {
			t.Errorf("ParseNumber(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"", ".5", "5.", "-1", "+1", "1e3", "1,5", "12a", "1.2.3", "1000000", "1.23456", "NaN", "١٢"} {
		if got, ok := ParseNumber(in); ok {
			t.Errorf("ParseNumber(%q) = %q, want rejection", in, got)
		}
	}
}

func TestNumberFromName(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Chapter 105.5": "105.5", "chapter 7": "7", "Ch. 12": "12", "Ch.12.5": "12.5", "ch 3": "3",
		"S2 Chapter 3": "3", "Vol.2 Chapter 10: The End": "10", "Chapter 10-11": "10",
		"Season 2 Chapter 004": "4", "Chapter #8": "8", "Chp 9": "9", "One Piece Chapter 1184": "1184",
		// WeebCentral labels rows with the source's own word (docs/CONTEXT.md "label word").
		"Episode 139.5": "139.5", "Episode 326": "326", "Navigation 67.5": "67.5", "Suggestion 192": "192",
		"Ep. 12": "12", "Vol.3 Episode 20": "20", "flower 13521": "13521", "Navigation 67.5: Alicia's Day": "67.5",
		"Catch 22": "22", "Church 5": "5", "Chapter 2024": "2024", "Episode 1999": "1999", "105": "105",
		"Épisode 4": "4", "Log 7 - The Return": "7",
	}
	for in, want := range cases {
		if got, ok := NumberFromName(in); !ok || got != want {
			t.Errorf("NumberFromName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"Special 2", "Oneshot", "Extra", "Chapter", "Chapter 1234567",
		"Chapter 1.2.3", "Volume 3", "Vol. 3", "Vol.3", "S2", "Season 2", "Part 2", "Book 4", "Side Story 3", "Extra 5", "Bonus 1",
		"", "Epilogue", "Prologue", "Summer 2023", "2023", "Update 2024", "2024-05-01", "Notice 2024-05-01",
		"News 12/05/2023", "Volume 3 Extras", "Word 12abc", "Omake 3", "Two Words 5"} {
		if got, ok := NumberFromName(in); ok {
			t.Errorf("NumberFromName(%q) = %q, want none", in, got)
		}
	}
}

// FuzzNumberFromName: whatever the label, an accepted number is a
// normalised decimal that appears in the label, and never a year or date.
func FuzzNumberFromName(f *testing.F) {
	for _, s := range []string{"Chapter 105.5", "Episode 139.5", "Navigation 67.5", "Volume 3", "2024-05-01", "Epilogue", "Ch.1.2.3", "Special 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, label string) {
		got, ok := NumberFromName(label)
		if !ok {
			if got != "" {
				t.Fatalf("refused %q but returned %q", label, got)
			}
			return
		}
		if n, ok := ParseNumber(got); !ok || n != got {
			t.Fatalf("NumberFromName(%q) = %q, not a normalised number", label, got)
		}
		if strings.Trim(label, "0123456789 .") == "" && len(got) == 4 && (got[:2] == "19" || got[:2] == "20") {
			t.Fatalf("NumberFromName(%q) = %q, a year", label, got)
		}
	})
}

func TestNumberFromFloat(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{105: "105", 12.5: "12.5", 0: "0", 0.1: "0.1"} {
		if got, ok := NumberFromFloat(in); !ok || got != want {
			t.Errorf("NumberFromFloat(%v) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []float64{-1, 1e6, 1e300, 0.123456} {
		if got, ok := NumberFromFloat(in); ok {
			t.Errorf("NumberFromFloat(%v) = %q, want rejection", in, got)
		}
	}
}

func TestCompareNumbers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1}, {"10", "9", 1}, {"10.5", "10.25", 1}, {"10.25", "10.5", -1}, {"10.50", "10.5", 0},
		{"010", "10", 0}, {"x", "1", -1}, {"1", "x", 1}, {"x", "y", 0}, {"100", "99.9", 1},
	}
	for _, c := range cases {
		if got := CompareNumbers(c.a, c.b); got != c.want {
			t.Errorf("CompareNumbers(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestNumberFromJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`"12.50"`: "12.5", `12.5`: "12.5", `105`: "105", `"007"`: "7"} {
		if got, ok := NumberFromJSON([]byte(in)); !ok || got != want {
			t.Errorf("NumberFromJSON(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{`null`, `""`, `"Special"`, `-1`, `{}`, `[1]`, `true`, ``} {
		if got, ok := NumberFromJSON([]byte(in)); ok {
			t.Errorf("NumberFromJSON(%s) = %q, want none", in, got)
		}
	}
}
