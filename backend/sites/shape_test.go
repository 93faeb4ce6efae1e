package sites

import "testing"

func TestJSONFields(t *testing.T) {
	t.Parallel()
	body := []byte(`{"success": true, "data": {"chapters": [{"chapter_name": "x"}, {"chapter_slug": "chapter-2", "chapter_num": null}]}, "list": [1], "n": null}`)
	want := map[string]bool{
		"success": true, "data.chapters[]": true, "data.chapters[].chapter_slug": true, "data.chapters[].chapter_name": true,
		"data.chapters[].chapter_num": true, "data.chapters[].updated_at": false, "data.missing": false, "n": true,
		"list[]": true, "success[]": false, "data.chapters.chapter_slug": false, "[]": false,
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	for _, f := range JSONFields(body, paths...) {
		if f.Found != want[f.Name] {
			t.Errorf("%s: found %v, want %v", f.Name, f.Found, want[f.Name])
		}
	}
	if f := JSONFields([]byte(`[{"a": 1}]`), "[].a", "[].b"); !f[0].Found || f[1].Found {
		t.Errorf("top-level array: %+v", f)
	}
	for _, f := range JSONFields([]byte(`<html>`), "a", "[]") {
		if f.Found {
			t.Errorf("not JSON found %s", f.Name)
		}
	}
}
