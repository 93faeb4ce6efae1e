package sites

import "testing"

func TestSegment(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"abc": "abc", "a/b": "a%2Fb", "...": "...", "a b": "a%20b", "?x": "%3Fx", "#y": "%23y"} {
		if got, ok := Segment(in); !ok || got != want {
			t.Errorf("Segment(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", ".", ".."} {
		if got, ok := Segment(in); ok {
			t.Errorf("Segment(%q) = %q, want refusal", in, got)
		}
	}
}
