package userscript_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/userscript"
)

func TestRenderFillsEveryPlaceholder(t *testing.T) {
	t.Parallel()
	out := string(userscript.Render(userscript.Source, "https://mb.example.org:8443/"))
	if strings.Contains(out, "__MB_BASE_URL__") || strings.Contains(out, "__MB_CONNECT_HOST__") {
		t.Fatal("placeholder left in the rendered script")
	}
	for _, want := range []string{
		"// @updateURL    https://mb.example.org:8443/userscript/mangabookmark.user.js",
		"// @connect      mb.example.org",
		"const DEFAULT_BASE_URL = 'https://mb.example.org:8443';",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered script lacks %q", want)
		}
	}
}

// A hostile base URL cannot break out of the metadata line or the string.
func TestRenderSanitisesTheBaseURL(t *testing.T) {
	t.Parallel()
	out := string(userscript.Render(userscript.Source, "https://x.org/'\n// @require https://evil/\"</script>"))
	if strings.Contains(out, "// @require") || strings.Contains(out, "</script>") {
		t.Fatalf("base URL broke out:\n%s", out[:600])
	}
	if !strings.Contains(out, "const DEFAULT_BASE_URL = 'https://x.org/") {
		t.Fatal("base URL string not kept whole")
	}
}

func TestScriptDeclaresTheQueueBound(t *testing.T) {
	t.Parallel()
	src := string(userscript.Source)
	for _, want := range []string{"const QUEUE_MAX = 200;", "history", "pushState", "popstate", "'online'"} {
		if !strings.Contains(src, want) {
			t.Errorf("userscript lacks %q", want)
		}
	}
}
