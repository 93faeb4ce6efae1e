package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// Issue 33 PS1: posting another Reader's push endpoint took their
// subscription over. It is now 409 with the reason, and the victim's row
// (owner and keys) is left exactly as it was; the victim may still renew
// their own keys.
func TestPushEndpointIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	e := strictNoticeEnv(t)
	ann, bob := e.token("310"), e.token("311")
	const endpoint = "https://93.184.215.14/wpush/v2/victim"
	if code, body := e.do(ann, "POST", "/api/push/subscriptions", browserSubscription(t, endpoint)); code != http.StatusCreated {
		t.Fatalf("Ann subscribes: %d %s", code, body)
	}
	row := func() (owner, keys string) {
		t.Helper()
		if err := e.st.Pool().QueryRow(context.Background(), `SELECT r.discord_id, s.p256dh || s.auth
			FROM push_subscriptions s JOIN readers r ON r.id = s.reader_id WHERE s.endpoint = $1`, endpoint).Scan(&owner, &keys); err != nil {
			t.Fatal(err)
		}
		return owner, keys
	}
	_, annKeys := row()
	code, body := e.do(bob, "POST", "/api/push/subscriptions", browserSubscription(t, endpoint))
	if code != http.StatusConflict || !strings.Contains(string(body), "another Reader") {
		t.Fatalf("Bob posts Ann's endpoint: %d %s, want 409 with the reason", code, body)
	}
	if owner, keys := row(); owner != "310" || keys != annKeys {
		t.Fatalf("after Bob's post the row is %s's with keys changed %v, want Ann's untouched", owner, keys != annKeys)
	}
	if code, body := e.do(ann, "POST", "/api/push/subscriptions", browserSubscription(t, endpoint)); code != http.StatusCreated {
		t.Fatalf("Ann renews her keys: %d %s", code, body)
	}
	if owner, keys := row(); owner != "310" || keys == annKeys {
		t.Fatalf("Ann's renewal: owner %s, keys renewed %v", owner, keys != annKeys)
	}
}
