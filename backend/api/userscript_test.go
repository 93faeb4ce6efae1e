package api_test

import (
	"net/http"
	"regexp"
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
	// Every host of every registered Site is matched, with and without
	// www, on https only: a page served over plain http is anyone's.
	if strings.Contains(js, "@match        *://") || strings.Contains(js, "@match        http://") {
		t.Error("the userscript matches pages that are not https://")
	}
	for _, s := range e.reg.All() {
		for _, host := range s.Hosts {
			bare := strings.TrimPrefix(host, "www.") // a Site may name its www host first
			for _, h := range []string{bare, "www." + bare} {
				if !strings.Contains(js, "// @match        https://"+h+"/*") {
					t.Errorf("no @match for %s (%s)", h, s.Name)
				}
			}
		}
	}
}

// The served build carries no test hook: nothing a page script could set
// (window.__MB_LOADED, window.__MB_TEST_SITES or any other page global)
// switches it off or changes which Sites it reads, and it may talk to the
// backend's host only.
func TestServedUserscriptHasNoTestHooks(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	code, _, body := e.doH("", "GET", "/userscript/mangabookmark.user.js", "", nil)
	if code != http.StatusOK {
		t.Fatalf("userscript: %d", code)
	}
	js := string(body)
	for _, banned := range []string{"__MB_LOADED", "__MB_TEST_SITES", "__MB_"} {
		if strings.Contains(js, banned) {
			t.Errorf("the served userscript mentions %q", banned)
		}
	}
	if m := regexp.MustCompile(`(?:window|unsafeWindow|PAGE|W)\s*(?:\.\s*__|\[)`).FindString(js); m != "" {
		t.Errorf("the served userscript reads a page global: %q", m)
	}
	connects := regexp.MustCompile(`(?m)^// @connect\s+(\S+)$`).FindAllStringSubmatch(js, -1)
	if len(connects) != 1 || connects[0][1] != "mb.example.org" {
		t.Errorf("@connect lines %v, want only the backend's host", connects)
	}
	if !strings.Contains(js, "// @grant        GM_registerMenuCommand") {
		t.Error("no menu command grant: settings could only be changed inside the page")
	}
}
