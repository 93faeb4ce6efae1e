package web

import "testing"

// withFlash names this act's flash only: a done the page already carried
// (from an earlier act) is replaced, other parameters keep their order and
// a fragment stays a fragment.
func TestWithFlashReplacesAnEarlierDone(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/works/1":                     "/works/1?done=id",
		"/?page=2":                     "/?page=2&done=id",
		"/series/a/b?done=unlink":      "/series/a/b?done=id",
		"/?q=x&done=notify&page=2":     "/?q=x&page=2&done=id",
		"/?done&done=x&done=y":         "/?done=id",
		"/works/1#ids":                 "/works/1?done=id#ids",
		"/works/1?done=offset#members": "/works/1?done=id#members",
		"/?doneness=1":                 "/?doneness=1&done=id",
	} {
		if got := withFlash(in, "id"); got != want {
			t.Errorf("withFlash(%q) = %q, want %q", in, got, want)
		}
	}
}
