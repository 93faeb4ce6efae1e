package tachibk

import "fmt"

// Error is every refusal of Read: Kind (ErrTooLarge or ErrMalformed)
// decides how the file is answered, and Reason says what is wrong with it
// in words a person reads, without the package prefix. Error() is the log
// form, "tachibk: …: " and the Reason.
type Error struct {
	Kind   error  // ErrTooLarge or ErrMalformed
	Reason string // what is wrong with the file, for a person
	Err    error  // what was met, when something was (a gzip or read error); may be nil
}

func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Reason }

// Unwrap gives errors.Is and errors.As the Kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// malformed is an ErrMalformed refusal; cause may be nil.
func malformed(cause error, format string, args ...any) error {
	return &Error{Kind: ErrMalformed, Reason: fmt.Sprintf(format, args...), Err: cause}
}

// tooLarge is an ErrTooLarge refusal.
func tooLarge(format string, args ...any) error {
	return &Error{Kind: ErrTooLarge, Reason: fmt.Sprintf(format, args...)}
}
