package dom

import "testing"

func TestFields(t *testing.T) {
	t.Parallel()
	body := []byte(`<div id="chapters"><div><a href="/c/1">Chapter 1</a></div></div><section x-data="{}"><h1 class="t">T</h1></section>`)
	got := Fields(body,
		Check{"#chapters > div > a", Has(ChildOf("a", ChildOf("div", func(n *Node) bool { v, _ := Attr(n, "id"); return v == "chapters" })))},
		Check{"section[x-data]", Has(WithAttr("section", "x-data"))},
		Check{"h1.t", Has(WithClass("h1", "t"))},
		Check{"time[datetime]", Has(WithAttr("time", "datetime"))},
		Check{"div > h1", Has(ChildOf("h1", Tag("div")))},
	)
	want := []bool{true, true, true, false, false}
	for i, f := range got {
		if f.Found != want[i] {
			t.Errorf("%s: found %v, want %v", f.Name, f.Found, want[i])
		}
	}
}
