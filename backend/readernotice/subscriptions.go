package readernotice

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
)

// MaxPushSubscriptions is how many browsers one Reader may subscribe.
const MaxPushSubscriptions = 20

// PushSubscription is a browser's PushSubscription as its toJSON gives
// it: the push service endpoint and the browser's keys.
type PushSubscription struct {
	Endpoint string
	P256dh   string // the browser's P-256 public key, base64url
	Auth     string // the 16-byte auth secret, base64url
}

// Subscribe stores a browser's push subscription for the Reader. The
// endpoint is an outlet URL like the others (http(s), no private or
// loopback address unless the Owner allows them); the keys must be what
// a browser makes. A bad field is a *FieldError, an endpoint another
// Reader holds an *EndpointTakenError, and nothing is stored. At most
// MaxPushSubscriptions a Reader, held by the store under the Reader's lock
// whichever face posts.
func (s *Service) Subscribe(ctx context.Context, readerID int64, p PushSubscription) error {
	p.Endpoint = strings.TrimSpace(p.Endpoint)
	switch {
	case p.Endpoint == "":
		return &FieldError{"endpoint", "the subscription has no endpoint; send the browser's PushSubscription as JSON"}
	case len(p.Endpoint) > 2048:
		return &FieldError{"endpoint", "the endpoint is longer than 2048 characters"}
	}
	if err := s.cfg.Guard.Check(ctx, p.Endpoint); err != nil {
		return &FieldError{"endpoint", netguard.Reason(err)}
	}
	if _, err := decodePoint(p.P256dh); err != nil {
		return &FieldError{"keys.p256dh", "the key is not a base64url P-256 public key as PushSubscription.toJSON() gives it"}
	}
	if b, err := decodeKey(p.Auth); err != nil || len(b) != 16 {
		return &FieldError{"keys.auth", "the auth secret is not 16 bytes in base64url as PushSubscription.toJSON() gives it"}
	}
	err := s.cfg.Store.SavePushSubscription(ctx, store.PushSubscription{ReaderID: readerID,
		Endpoint: p.Endpoint, P256dh: p.P256dh, Auth: p.Auth}, MaxPushSubscriptions)
	switch {
	case errors.Is(err, store.ErrPushLimit):
		return &FieldError{"endpoint", fmt.Sprintf("you have %d browsers subscribed, the most allowed; unsubscribe one first", MaxPushSubscriptions)}
	case errors.Is(err, store.ErrPushEndpointTaken):
		return &EndpointTakenError{}
	}
	return err
}

// EndpointTakenError refuses a push endpoint another Reader of this server
// holds (a shared browser, or a copied endpoint): their subscription stays
// theirs, and nothing is stored. The HTTP faces answer 409.
type EndpointTakenError struct{}

func (*EndpointTakenError) Error() string {
	return "readernotice: subscribe: the endpoint is held by another Reader"
}

// Reason is the sentence a Reader reads.
func (*EndpointTakenError) Reason() string {
	return "this browser already gets another Reader's notifications from this server; they must turn notifications off in this browser before you can turn them on"
}

// Unsubscribe removes the Reader's subscription at endpoint and reports
// whether there was one.
func (s *Service) Unsubscribe(ctx context.Context, readerID int64, endpoint string) (bool, error) {
	return s.cfg.Store.DeletePushSubscription(ctx, readerID, strings.TrimSpace(endpoint))
}
