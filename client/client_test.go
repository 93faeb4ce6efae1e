package client_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/client"
)

func TestClientAdminRoundTrip(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	c, err := client.New(f.URL(), apitest.OwnerToken)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lanes, err := c.Lanes(ctx)
	if err != nil || len(lanes) != 6 || lanes[3].Site != "weebcentral" || lanes[3].State != client.StateRunning {
		t.Fatalf("Lanes = %+v, %v", lanes, err)
	}
	passes, err := c.Passes(ctx, "weebcentral", 3)
	if err != nil || len(passes) != 3 {
		t.Fatalf("Passes = %d, %v", len(passes), err)
	}
	fl, err := c.Failing(ctx, client.FailingFilter{Site: "comix", Outcome: "unfetchable"})
	if err != nil || fl.Total != 2 || len(fl.Failing) != 2 {
		t.Fatalf("Failing = %+v, %v", fl, err)
	}
	at, err := c.Force(ctx, "comix", "3")
	if err != nil || !at.Equal(admintest.Now) {
		t.Fatalf("Force = %v, %v", at, err)
	}
	l, err := c.Pause(ctx, "mangapill", 30*time.Minute, "test")
	if err != nil || l.State != client.StatePaused || l.PauseReason != "test" {
		t.Fatalf("Pause = %+v, %v", l, err)
	}
	l, err = c.Resume(ctx, "mangapill")
	if err != nil || l.State == client.StatePaused {
		t.Fatalf("Resume = %+v, %v", l, err)
	}
	n, err := c.Notices(ctx)
	if err != nil || len(n) != 2 {
		t.Fatalf("Notices = %+v, %v", n, err)
	}
	if err := c.Healthz(ctx); err != nil {
		t.Fatalf("Healthz: %v", err)
	}
}

func TestClientErrors(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	ctx := context.Background()
	reader, _ := client.New(f.URL(), apitest.ReaderToken)
	_, err := reader.Lanes(ctx)
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden || apiErr.Message == "" {
		t.Errorf("reader Lanes err = %v, want a 403 APIError", err)
	}
	if errors.Is(err, client.ErrUnreachable) {
		t.Errorf("a 403 matched ErrUnreachable")
	}
	owner, _ := client.New(f.URL(), apitest.OwnerToken)
	if _, err := owner.Force(ctx, "nosuch", "1"); !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Errorf("unknown site err = %v", err)
	}

	// A listener closed at once: nothing answers on that port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	gone, _ := client.New("http://"+addr, apitest.OwnerToken)
	if _, err := gone.Lanes(ctx); !errors.Is(err, client.ErrUnreachable) || errors.As(err, &apiErr) {
		t.Errorf("closed port err = %v, want ErrUnreachable", err)
	}

	// A proxy answering HTML still yields an APIError with a message.
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
	}))
	defer html.Close()
	proxy, _ := client.New(html.URL, "x")
	if _, err := proxy.Lanes(ctx); !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Message == "" {
		t.Errorf("502 err = %v", err)
	}
	if _, err := client.New("ftp://x", ""); err == nil {
		t.Errorf("New accepted an ftp URL")
	}
}

func TestClientReaderRoundTrip(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	c, _ := client.New(f.URL(), apitest.ReaderToken)
	ctx := context.Background()
	me, err := c.Me(ctx)
	if err != nil || me.DiscordID != "200" || me.Owner {
		t.Fatalf("Me = %+v, %v", me, err)
	}
	b, err := c.AddBookmark(ctx, "https://weebcentral.test/series/7")
	if err != nil || b.Site != "weebcentral" || b.SeriesID != "7" {
		t.Fatalf("AddBookmark = %+v, %v", b, err)
	}
	var apiErr *client.APIError
	if _, err := c.AddBookmark(ctx, "https://nowhere.test/x"); !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Errorf("AddBookmark of an unknown Site = %v, want 422", err)
	}
	res, err := c.SyncProgress(ctx, []client.Read{{Site: "weebcentral", SeriesID: "7", Number: "3",
		URL: "https://weebcentral.test/series/7", ReadAt: admintest.Now}})
	if err != nil || res.Applied != 1 {
		t.Fatalf("SyncProgress = %+v, %v", res, err)
	}
	list, err := c.Bookmarks(ctx)
	if err != nil || len(list) != 1 || list[0].Progress == nil || list[0].Progress.Number != "3" {
		t.Fatalf("Bookmarks = %+v, %v", list, err)
	}
	if err := c.RemoveBookmark(ctx, "weebcentral", "7"); err != nil {
		t.Fatalf("RemoveBookmark: %v", err)
	}
	if list, _ := c.Bookmarks(ctx); len(list) != 0 {
		t.Errorf("bookmarks after remove = %+v", list)
	}
}
