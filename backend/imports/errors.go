package imports

import "fmt"

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
