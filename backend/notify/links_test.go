package notify_test

import (
	"testing"

	"mangabookmark/backend/notify"
)

func TestPagePath(t *testing.T) {
	for _, c := range []struct{ kind, site, want string }{
		{notify.KindSidecarDown, "", "/admin"},
		{notify.KindStall, "mangapill", "/admin/lanes/mangapill"},
		{notify.KindNoBrowserRoute, "weebcentral", "/admin/lanes/weebcentral"},
		{notify.KindAdapterBroken, "a/b?c", "/admin/lanes/a%2Fb%3Fc"},
	} {
		if got := notify.PagePath(c.kind, c.site); got != c.want {
			t.Errorf("PagePath(%q, %q) = %q, want %q", c.kind, c.site, got, c.want)
		}
	}
}
