package store_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/store/dbtest"
)

func TestPauseResumeRefuse(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l, err := st.GetLane(ctx, "kagane")
	if err != nil || l.Site != "kagane" || l.Paused(now) || l.Refusing(now) {
		t.Fatalf("zero lane: %+v %v", l, err)
	}
	l, err = st.PauseLane(ctx, "kagane", now.Add(time.Hour), "maintenance")
	if err != nil || !l.Paused(now) || l.PauseReason != "maintenance" || l.Paused(now.Add(2*time.Hour)) {
		t.Fatalf("pause: %+v %v", l, err)
	}
	if err := st.SetRefuseUntil(ctx, "kagane", now.Add(15*time.Minute)); err != nil {
		t.Fatal(err)
	}
	l, _ = st.GetLane(ctx, "kagane")
	if !l.Refusing(now) || !l.Paused(now) {
		t.Fatalf("refuse kept pause? %+v", l)
	}
	l, err = st.ResumeLane(ctx, "kagane")
	if err != nil || l.Paused(now) || l.PauseReason != "" || !l.Refusing(now) {
		t.Fatalf("resume: %+v %v", l, err)
	}
}
