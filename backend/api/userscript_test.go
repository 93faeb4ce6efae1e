package api_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestUserscriptServedForTheDeployment(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	code, h, body := e.doH("", "GET", "/userscript/mangabookmark.user.js", "", nil)
	if code != http.StatusOK {
		t.Fatalf("userscript: %d", code)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Fatalf("content type %q", ct)
	}
	js := string(body)
	for _, want := range []string{
		"// @updateURL    " + baseURL + "/userscript/mangabookmark.user.js",
		"// @downloadURL  " + baseURL + "/userscript/mangabookmark.user.js",
		"// @connect      mb.example.org",
		"const DEFAULT_BASE_URL = '" + baseURL + "';",
		"// @grant        GM_xmlhttpRequest",
		"// @grant        GM_getValue",
		"// @grant        GM_setValue",
	} {
		if !strings.Contains(js, want) {
			t.Errorf("userscript lacks %q", want)
		}
	}
	if strings.Contains(js, "__MB_BASE_URL__") || strings.Contains(js, "__MB_CONNECT_HOST__") {
		t.Error("a placeholder was left unrendered")
	}
	// Every host of every registered Site is matched, with and without www.
	for _, s := range e.reg.All() {
		for _, host := range s.Hosts {
			for _, h := range []string{host, "www." + host} {
				if !strings.Contains(js, "// @match        *://"+h+"/*") {
					t.Errorf("no @match for %s (%s)", h, s.Name)
				}
			}
		}
	}
}
