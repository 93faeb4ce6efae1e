package main

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mangabookmark/backend/imports/tachibk/tachibktest"
	"mangabookmark/backend/phonesync/syncclient"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
)

// demoPhoneManga is how many manga the demo's phone holds at most.
const demoPhoneManga = 6

// demoPhone is the demo's scripted phone: a SyncYomi client
// (backend/phonesync/syncclient, the app's v1 sync) holding the Owner's
// MangaPill Series with a backlog (k ≡ 1 (mod 3), read up to chapter 1,
// the broken first three left out) under the Owner's sync key. Each tick
// it refreshes its chapter lists from the simulator (as the app's library
// update does), reads the next chapter of one manga in turn when asked,
// and syncs: the server moves the Owner's Progress (source sync), and a
// read made on the web comes back marked read on the phone at its next
// sync. Safe for one goroutine at a time (run, or a test calling tick).
type demoPhone struct {
	mu    sync.Mutex
	sim   *sitesim.Sim
	ids   []string // MangaPill Series ids, in the library's order
	next  int      // the manga the next read is of
	now   func() time.Time
	v1    *syncclient.V1
	log   *slog.Logger
	reads int
}

// newDemoPhone builds the phone for the Series of series bookmarked on
// MangaPill; nil when none has a backlog (a --series under 5).
func newDemoPhone(sim *sitesim.Sim, series int, host, key string, now func() time.Time, log *slog.Logger) (*demoPhone, error) {
	p := &demoPhone{sim: sim, now: now, log: log}
	b := tachibktest.Backup{Sources: []tachibktest.Source{{Name: syncclient.PillName, ID: syncclient.PillSource}}}
	for k, id := range sim.SeriesIDs(sitesim.MangaPill, series) {
		if k < 3 || k%3 != 1 || len(p.ids) == demoPhoneManga {
			continue
		}
		p.ids = append(p.ids, id)
		b.Manga = append(b.Manga, tachibktest.Manga{Source: syncclient.PillSource, URL: p.path(sim.SeriesURL(sitesim.MangaPill, id)),
			Title: sim.Title(sitesim.MangaPill, id), LastModifiedAt: now().Unix(), Version: 1})
	}
	if len(p.ids) == 0 {
		return nil, nil
	}
	lib, err := syncclient.Decode(b.Proto())
	if err != nil {
		return nil, fmt.Errorf("demo: the phone's library: %w", err)
	}
	p.v1 = &syncclient.V1{Host: host, Key: key, DeviceID: "demo-phone", DeviceName: "Demo phone", Now: now, Local: lib,
		HTTP: &http.Client{Timeout: 30 * time.Second}}
	p.refresh()
	for i := range p.v1.Local.Manga { // read up to chapter 1, as the seeded Progress
		if m := &p.v1.Local.Manga[i]; len(m.Chapters) > 0 {
			m.Chapters[0].Read = true
		}
	}
	return p, nil
}

// path is a simulator URL without its origin: the app keeps a manga's
// and a chapter's URL relative to its source.
func (p *demoPhone) path(u string) string {
	o := p.sim.Origin(sitesim.MangaPill)
	return strings.TrimPrefix(u, o)
}

// refresh adds the chapters the simulator shows now that the phone does
// not hold yet, unread, as the app's library update does.
func (p *demoPhone) refresh() {
	now := p.now().Unix()
	for i := range p.v1.Local.Manga {
		m := &p.v1.Local.Manga[i]
		id := p.ids[i]
		latest, err := strconv.ParseFloat(p.sim.Latest(sitesim.MangaPill, id), 64)
		if err != nil {
			continue
		}
		for n := len(m.Chapters) + 1; n <= int(math.Floor(latest)); n++ {
			num := strconv.Itoa(n)
			m.Chapters = append(m.Chapters, syncclient.Chapter{URL: p.path(p.sim.ReaderURL(sitesim.MangaPill, id, num)),
				Name: "Chapter " + num, Number: float32(n), LastModifiedAt: now, Version: 1})
		}
	}
}

// read marks the next unread chapter of the next manga in turn read, as
// the app does when the Reader finishes it; it returns the manga's id and
// the chapter ("" when every chapter is read).
func (p *demoPhone) read() (string, string) {
	lib := p.v1.Local
	for range lib.Manga {
		i := p.next % len(lib.Manga)
		p.next++
		m := &lib.Manga[i]
		for c := range m.Chapters {
			ch := &m.Chapters[c]
			if !ch.Read {
				ch.Read, ch.LastPageRead = true, 19
				ch.Version++
				ch.LastModifiedAt = p.now().Unix()
				return p.ids[i], strconv.FormatFloat(float64(ch.Number), 'f', -1, 32)
			}
		}
	}
	return "", ""
}

// tick refreshes, reads a chapter when read is set, and syncs once.
func (p *demoPhone) tick(ctx context.Context, read bool) (syncclient.Outcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refresh()
	id, number := "", ""
	if read {
		id, number = p.read()
	}
	out, err := p.v1.Sync(ctx)
	if err != nil {
		return out, err
	}
	if number != "" {
		p.reads++
		p.log.Info("the demo phone read a chapter and synced", "site", sitesim.MangaPill, "series_id", id, "chapter", number, "pushed", out.Pushed)
	} else {
		p.log.Debug("the demo phone synced", "pushed", out.Pushed, "status", out.Status)
	}
	return out, nil
}

// readTo is the furthest chapter the phone holds read of Series id.
func (p *demoPhone) readTo(id string) float32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var top float32
	for i, m := range p.v1.Local.Manga {
		if p.ids[i] != id {
			continue
		}
		for _, c := range m.Chapters {
			if c.Read && c.Number > top {
				top = c.Number
			}
		}
	}
	return top
}

// run syncs every every until ctx ends, reading a chapter at every other
// sync; the first sync is after a few seconds, once the server listens.
// A failed sync is logged and the next tick tries again, as the app does.
func (p *demoPhone) run(ctx context.Context, every time.Duration) {
	wait := 5 * time.Second
	for n := 0; ; n++ {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait = every
		if _, err := p.tick(ctx, n%2 == 1); err != nil && ctx.Err() == nil {
			p.log.Warn("the demo phone could not sync; it tries again at its next sync", "error", err)
		}
	}
}

// demoHost is the base URL the demo's own clients reach the server at:
// LISTEN_ADDR, on loopback when it names every interface.
func demoHost(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// startDemoPhone mints the Owner's sync key and starts the phone's syncs
// until ctx ends (every 0: no phone).
func startDemoPhone(ctx context.Context, mint func(context.Context, int64) (string, store.Token, error), owner store.Reader,
	sim *sitesim.Sim, series int, listen string, every time.Duration, log *slog.Logger) error {
	if every <= 0 {
		return nil
	}
	key, _, err := mint(ctx, owner.ID)
	if err != nil {
		return err
	}
	p, err := newDemoPhone(sim, series, demoHost(listen), key, time.Now, log.With("component", "demo-phone"))
	if err != nil || p == nil {
		return err
	}
	go p.run(ctx, every)
	log.Info("the demo phone syncs with the Owner's sync key", "every", every, "manga", len(p.ids))
	return nil
}
