// Package jsonbody words what is wrong with a JSON body that does not
// decode, in the one sentence a person reads on both the API
// (backend/api) and the imports (backend/imports). It imports nothing of
// the project.
package jsonbody

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Problem is the sentence for err, an error of encoding/json's Decoder
// (with DisallowUnknownFields) reading a body: an empty body, JSON that
// does not parse, a field of the wrong type, a field no one takes. Never
// err's text: a bound the caller sets (a size) is the caller's to word.
func Problem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the body is empty: send a JSON object"
	case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
		return "the body is not valid JSON"
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("the body must be a JSON object, not %s", typ.Value)
		}
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, kind(typ.Type.Kind().String()), typ.Value)
	}
	// encoding/json has no typed error for an unknown field: its text,
	// `json: unknown field "x"`, is all there is.
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Sprintf("unknown field %s in the body", field)
	}
	return "the body could not be read as the expected JSON object"
}

// kind names a Go kind as the JSON a person would send.
func kind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	case "ptr", "interface":
		return "a value of the documented type"
	}
	return "a number"
}
