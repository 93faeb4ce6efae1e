package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Issue 33 PS1 on the page's face: the notifications card posting an
// endpoint another Reader holds (a shared browser) is 409 with the
// reason, and the other Reader's subscription stays theirs.
func TestPushSubscribeLeavesAnotherReadersEndpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	const endpoint = "https://93.184.215.14/wpush/shared"
	owner := f.login(t, f.ownerToken)
	if a := f.postForm(t, owner, "/notices/push/subscribe", url.Values{"subscription": {subscriptionJSON(t, endpoint)}, "csrf": {f.csrf(t, owner, "/notices")}}); a.code != http.StatusCreated {
		t.Fatalf("the Owner subscribes: %d %s", a.code, a.body)
	}
	before, err := f.st.GetPushSubscription(ctx, 1, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	c := f.login(t, f.readerToken)
	a := f.postForm(t, c, "/notices/push/subscribe", url.Values{"subscription": {subscriptionJSON(t, endpoint)}, "csrf": {f.csrf(t, c, "/notices")}})
	var e struct{ Error string }
	if a.code != http.StatusConflict || json.Unmarshal([]byte(a.body), &e) != nil || !strings.Contains(e.Error, "another Reader") {
		t.Fatalf("the Reader posts the Owner's endpoint: %d %s, want 409 with the reason", a.code, a.body)
	}
	after, err := f.st.GetPushSubscription(ctx, 1, endpoint)
	if err != nil || after != before {
		t.Fatalf("the Owner's subscription after the Reader's post: %+v %v, want it untouched", after, err)
	}
}
