package imports

import (
	"errors"
	"fmt"
)

// reasonError is an error whose text is one sentence for the Reader,
// wrapping the sentinel (ErrTooLarge, ErrUnreadable) that decides the
// answer's status.
type reasonError struct {
	kind error
	text string
}

func (e *reasonError) Error() string { return e.text }
func (e *reasonError) Unwrap() error { return e.kind }

// errorf makes a reasonError of kind with the formatted text.
func errorf(kind error, format string, args ...any) error {
	return &reasonError{kind: kind, text: fmt.Sprintf(format, args...)}
}

// Reason is the sentence a person reads for an error of Decode, FromLines
// or a decoder: the reason it carries, found through any wrapping, never
// the error's text; a plain sentence for an error that carries none.
func Reason(err error) string {
	var re *reasonError
	if errors.As(err, &re) {
		return re.text
	}
	return "the import could not be read; check the file and send it again"
}
