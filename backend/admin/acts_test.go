package admin_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/admin/admintest"
	"mangabookmark/client"
)

func TestActsWakeTheLaneAndRefuseUnknowns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Force(ctx, "mangapill", "no-such-series"); !errors.Is(err, admin.ErrNoSeries) {
		t.Fatalf("force of an unknown Series: %v, want ErrNoSeries", err)
	}
	if _, err := e.svc.Force(ctx, "nosuch", "1"); !errors.Is(err, admin.ErrNoSite) {
		t.Fatalf("force on an unknown Site: %v, want ErrNoSite", err)
	}
	forS := int64(60)
	if err := e.svc.Pause(ctx, "nosuch", client.PauseRequest{ForS: &forS}); !errors.Is(err, admin.ErrNoSite) {
		t.Fatalf("pause of an unknown Site: %v, want ErrNoSite", err)
	}
	if err := e.svc.Resume(ctx, "nosuch"); !errors.Is(err, admin.ErrNoSite) {
		t.Fatalf("resume of an unknown Site: %v, want ErrNoSite", err)
	}
	if _, err := e.svc.Passes(ctx, "nosuch", 10); !errors.Is(err, admin.ErrNoSite) {
		t.Fatalf("passes of an unknown Site: %v, want ErrNoSite", err)
	}
	if ps, err := e.svc.Passes(ctx, "weebcentral", 2); err != nil || len(ps) != 2 || !ps[0].StartedAt.After(ps[1].StartedAt) {
		t.Fatalf("weebcentral's last 2 passes, newest first: %+v %v", ps, err)
	}
	if w := e.lanes.Wakes(); len(w) != 0 {
		t.Fatalf("refused acts woke %v", w)
	}
	if err := e.svc.Pause(ctx, "comix", client.PauseRequest{ForS: &forS, Reason: "  mirror moving \n"}); err != nil {
		t.Fatal(err)
	}
	l, err := e.svc.Lane(ctx, "comix")
	if err != nil {
		t.Fatal(err)
	}
	if l.State != client.StatePaused || l.PauseReason != "mirror moving" || !l.PausedUntil.Equal(admintest.Now.Add(time.Minute)) {
		t.Fatalf("after pause: %+v", l)
	}
	if err := e.svc.Resume(ctx, "comix"); err != nil {
		t.Fatal(err)
	}
	if w := e.lanes.Wakes(); !slices.Equal(w, []string{"comix", "comix"}) {
		t.Fatalf("wakes = %v, want comix twice", w)
	}
}

func TestPauseUntilRefusesWithAReason(t *testing.T) {
	t.Parallel()
	now := admintest.Now
	i := func(n int64) *int64 { return &n }
	at := func(d time.Duration) *time.Time { u := now.Add(d); return &u }
	cases := []struct {
		req  client.PauseRequest
		want string
	}{
		{client.PauseRequest{}, `send "for_s"`},
		{client.PauseRequest{ForS: i(60), Until: at(time.Hour)}, "not both"},
		{client.PauseRequest{ForS: i(0)}, "above 0, not 0"},
		{client.PauseRequest{ForS: i(-60)}, "above 0, not -60"},
		{client.PauseRequest{ForS: i(int64(admin.MaxPause/time.Second) + 1)}, "at most"},
		{client.PauseRequest{Until: at(-time.Second)}, "not in the future"},
		{client.PauseRequest{Until: at(admin.MaxPause + time.Second)}, "366 days ahead"},
		{client.PauseRequest{ForS: i(60), Reason: strings.Repeat("é", admin.MaxPauseReason+1)}, "longer than 500"},
	}
	for _, c := range cases {
		_, err := admin.PauseUntil(c.req, now)
		var in *admin.InputError
		if !errors.As(err, &in) || !strings.Contains(in.Reason, c.want) || strings.Contains(in.Reason, "admin:") {
			t.Errorf("PauseUntil(%+v) = %v, want an InputError saying %q", c.req, err, c.want)
		}
	}
	if u, err := admin.PauseUntil(client.PauseRequest{ForS: i(90), Reason: strings.Repeat("é", admin.MaxPauseReason)}, now); err != nil || !u.Equal(now.Add(90*time.Second)) {
		t.Errorf("a good pause: %v %v", u, err)
	}
	if u, err := admin.PauseUntil(client.PauseRequest{Until: at(admin.MaxPause)}, now); err != nil || !u.Equal(now.Add(admin.MaxPause)) {
		t.Errorf("a pause of exactly the longest: %v %v", u, err)
	}
}
