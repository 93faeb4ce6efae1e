package trackers

import "context"

// TokenLister is a tracker whose lists are private: the pull reads the
// Reader's own list with their token instead of a public list by user
// name (MangaBaka's library is under /v1/my, with a personal access
// token). Such a tracker's List by user name answers ErrNoSuchUser; the
// pull worker asks ListMine instead, and the Reader connects a token
// before pull or push can be turned on.
type TokenLister interface {
	// ListMine reads the token's whole list. A refused token is
	// ErrTokenRefused; the bounds and errors are List's.
	ListMine(ctx context.Context, token string) (Collection, error)
}
