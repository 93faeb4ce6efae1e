package ownernotice_test

import (
	"testing"

	"mangabookmark/backend/ownernotice"
)

func TestPagePath(t *testing.T) {
	for _, c := range []struct{ kind, site, want string }{
		{ownernotice.KindSidecarDown, "", "/admin"},
		{ownernotice.KindStall, "mangapill", "/admin/lanes/mangapill"},
		{ownernotice.KindNoBrowserRoute, "weebcentral", "/admin/lanes/weebcentral"},
		{ownernotice.KindAdapterBroken, "a/b?c", "/admin/lanes/a%2Fb%3Fc"},
	} {
		if got := ownernotice.PagePath(c.kind, c.site); got != c.want {
			t.Errorf("PagePath(%q, %q) = %q, want %q", c.kind, c.site, got, c.want)
		}
	}
}
