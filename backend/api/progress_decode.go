package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// decodeReads reads the body of POST /api/progress, {"reads":[...]}, one
// read at a time, and stops at read MaxReadsPerBatch+1. Decoding the whole
// body first let 1 MiB of empty reads ({},{},...: about 350,000) cost some
// 80 MiB of heap before the count was checked (issue 23 item 1); now a
// request never holds more than MaxReadsPerBatch reads. It answers the
// client itself on failure (the same statuses and sentences as decodeJSON)
// and returns ok false. reads is nil when the body has no "reads" field.
func decodeReads(w http.ResponseWriter, r *http.Request) (reads []readJSON, present, ok bool) {
	if !jsonContentType(w, r) {
		return nil, false, false
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	fail := func(err error) ([]readJSON, bool, bool) {
		status, msg := describeDecodeError(err)
		writeError(w, status, msg)
		return nil, false, false
	}
	bad := func(msg string) ([]readJSON, bool, bool) {
		writeError(w, http.StatusBadRequest, msg)
		return nil, false, false
	}
	tok, err := dec.Token()
	if err != nil {
		return fail(err)
	}
	if d, isDelim := tok.(json.Delim); !isDelim || d != '{' {
		return bad(fmt.Sprintf("the body must be a JSON object, not %s", tokenKind(tok)))
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if key != "reads" || present {
			return bad(fmt.Sprintf("unknown field %q in the body", key))
		}
		present = true
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if tok == nil {
			present = false // "reads":null is as good as missing
			continue
		}
		if d, isDelim := tok.(json.Delim); !isDelim || d != '[' {
			return bad(fmt.Sprintf(`field "reads" must be an array, not %s`, tokenKind(tok)))
		}
		reads = []readJSON{}
		for dec.More() {
			if len(reads) == MaxReadsPerBatch {
				return bad(fmt.Sprintf(`field "reads" holds more than %d reads; send at most %d per request`, MaxReadsPerBatch, MaxReadsPerBatch))
			}
			var rd readJSON
			if err := dec.Decode(&rd); err != nil {
				var typ *json.UnmarshalTypeError
				if errors.As(err, &typ) && typ.Field != "" {
					typ.Field = "reads." + typ.Field
				} else if errors.As(err, &typ) {
					return bad(fmt.Sprintf(`each of "reads" must be an object, not %s`, typ.Value))
				}
				return fail(err)
			}
			reads = append(reads, rd)
		}
		if _, err := dec.Token(); err != nil { // the closing ]
			return fail(err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing }
		return fail(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("the body must hold exactly one JSON object")
	}
	return reads, present, true
}

// tokenKind names a JSON token's kind for an error sentence.
func tokenKind(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}
