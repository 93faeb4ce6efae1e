package client

// PushKey is the body of GET /push/key: the VAPID public key a browser
// subscribes with (its applicationServerKey), base64url.
type PushKey struct {
	VAPIDPublicKey string `json:"vapid_public_key"`
}

// PushKeys are a browser's subscription keys, base64url.
type PushKeys struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

// PushSubscription is a browser's PushSubscription as its toJSON gives
// it (the body of POST /api/push/subscriptions). ExpirationTime is
// accepted and ignored: the push service's 404 or 410 ends a
// subscription here.
type PushSubscription struct {
	Endpoint       string   `json:"endpoint"`
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	Keys           PushKeys `json:"keys"`
}

// PushUnsubscribe is the body of DELETE /api/push/subscriptions.
type PushUnsubscribe struct {
	Endpoint string `json:"endpoint"`
}
