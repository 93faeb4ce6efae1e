package jsonbody_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mangabookmark/backend/jsonbody"
)

// Each way a body fails to decode has its sentence, naming the field and
// the JSON it wants, and none shows encoding/json's text.
func TestProblem(t *testing.T) {
	t.Parallel()
	type body struct {
		URL   string `json:"url"`
		Count int    `json:"count"`
		Tags  []string
	}
	for _, c := range []struct{ in, want string }{
		{``, "the body is empty: send a JSON object"},
		{`{"url":`, "the body is not valid JSON"},
		{`{"url" 1}`, "the body is not valid JSON"},
		{`[1]`, "the body must be a JSON object, not array"},
		{`{"url":1}`, `field "url" must be a string, not number`},
		{`{"count":"x"}`, `field "count" must be a number, not string`},
		{`{"Tags":{}}`, `field "Tags" must be an array, not object`},
		{`{"x":1}`, `unknown field "x" in the body`},
	} {
		dec := json.NewDecoder(strings.NewReader(c.in))
		dec.DisallowUnknownFields()
		var b body
		err := dec.Decode(&b)
		if err == nil {
			t.Fatalf("%s decoded", c.in)
		}
		if got := jsonbody.Problem(err); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
	if got := jsonbody.Problem(errString("json: cannot read /tmp/x")); strings.Contains(got, "/tmp") {
		t.Errorf("an unknown error shows its text: %q", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
