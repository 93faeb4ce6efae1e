package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"mangabookmark/backend/config"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/trackers/mangabaka"
)

// TestDemoMangaBakaStandIn: the demo's stand-in answers the real
// MangaBaka client with the demo token: a library naming the demo Series'
// mb ids and a few ids no Series carries.
func TestDemoMangaBakaStandIn(t *testing.T) {
	t.Parallel()
	cfg := config.Config{}
	stop, err := demoMangaBaka(&cfg, "127.0.0.1:0", 8, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	client, err := mangabaka.New(mangabaka.Config{Origin: cfg.TrackerOrigins[mangabaka.Name]})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if a, err := client.Viewer(ctx, DemoMangaBakaToken); err != nil || a.Name != "demo" {
		t.Fatalf("viewer %+v, %v", a, err)
	}
	list, err := client.ListMine(ctx, DemoMangaBakaToken)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range list.Entries {
		ids[e.MediaID] = true
	}
	for k := range 8 {
		for _, l := range sitesim.Links(sitesim.Comix, k) {
			if l.Kind == "mb" && !ids[l.Value] {
				t.Errorf("the demo library lacks Comix Series %d's mb id %s", k, l.Value)
			}
		}
	}
	if len(list.Entries) <= demoUnmatched {
		t.Fatalf("%d entries", len(list.Entries))
	}
	// A TRACKER_ORIGINS mangabaka entry is left alone.
	cfg2 := config.Config{TrackerOrigins: map[string]string{mangabaka.Name: "http://127.0.0.1:1"}}
	stop2, err := demoMangaBaka(&cfg2, "127.0.0.1:0", 8, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	stop2()
	if cfg2.TrackerOrigins[mangabaka.Name] != "http://127.0.0.1:1" {
		t.Fatal("the demo replaced TRACKER_ORIGINS' mangabaka entry")
	}
}
