package sites

import "testing"

func TestStatusWord(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "ongoing": StatusReleasing, "releasing": StatusReleasing, "completed": StatusCompleted,
		"finished": StatusCompleted, "hiatus": StatusHiatus, "on_hiatus": StatusHiatus, "cancelled": StatusCancelled,
		"discontinued": StatusCancelled, " Completed ": StatusCompleted, "upcoming": StatusUnknown, "<b>": StatusUnknown, //nolint:gocritic // the spaces are the case: a word is trimmed
	} {
		if got := StatusWord(in); got != want {
			t.Errorf("StatusWord(%q) = %q, want %q", in, got, want)
		}
	}
}
