package anilist

import (
	"context"
	"fmt"
	"net/url"

	"mangabookmark/backend/trackers"
)

// AuthorizeURLFor is AuthorizeURL for a state the caller made with
// trackers.States (bound to the Reader's session) and checks itself at
// the callback, before Exchange.
func (o *OAuth) AuthorizeURLFor(state string) string {
	v := url.Values{"client_id": {o.conf.ClientID}, "redirect_uri": {o.redirect}, "response_type": {"code"}, "state": {state}}
	return o.siteURL + authorizePath + "?" + v.Encode()
}

// Exchange trades an authorization code for the Reader's token, for a
// caller that checked the callback's state itself (Complete checks it
// here). trackers.ErrCodeRefused when AniList refuses the code; no error
// quotes the answer, the token or the secret.
func (o *OAuth) Exchange(ctx context.Context, code string) (string, error) {
	if code == "" || len(code) > 4096 {
		return "", fmt.Errorf("anilist: exchange: no usable code: %w", trackers.ErrCodeRefused)
	}
	token, err := o.exchange(ctx, code)
	o.conf.Recorder.Request(Name, trackers.KindToken, trackers.ResultOf(err))
	if err != nil {
		return "", fmt.Errorf("anilist: %w", err)
	}
	return token, nil
}
