package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mangabookmark/backend/auth"
	"mangabookmark/backend/config"
	"mangabookmark/backend/crosswalk"
	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store"
	"mangabookmark/backend/web"
)

// demoOwnerID is the Owner's Discord id when the environment names none.
const demoOwnerID = "100000000000000001"

// DemoCmd runs the backend against the built-in Site simulator with a
// seeded library: some Series failing, one Site refusing, and a local
// AniList stand-in with a user whose list names the demo Series' al ids
// (demo_anilist.go), and a MangaBaka stand-in whose demo token's library
// names their mb ids (demo_mangabaka.go); the simulator publishes
// chapters all along (demo_sim.go) and a scripted phone syncs the
// Owner's MangaPill Series under the Owner's sync key (demo_phone.go). It writes an
// Owner token to --token-file for the console and a one-time login link
// for the web pages to --login-link-file.
type DemoCmd struct {
	SimListen string        `help:"Address of the simulator's first Site (the others take the next five ports; port 0: any free ports)." default:"127.0.0.1:18080"`
	Series    int           `help:"Bookmarked Series per Site." default:"50"`
	NewEvery  time.Duration `help:"How often, on average, each simulated Series publishes a chapter (at random times, each Site's listing naming it; 60 Series a Site at 2h: a chapter a Site every two minutes)." default:"2h"`
	TokenFile string        `help:"Where to write the Owner token for mbctl." default:".data/demo/owner-token" type:"path"`
	LinkFile  string        `name:"login-link-file" help:"Where to write the Owner's one-time web login path (/login/once/...)." default:".data/demo/login-link" type:"path"`
	Refusing  string        `help:"A plain Site to make refuse every read (empty: none)." default:"weebcentral"`
	FeedFile  string        `name:"feed-url-file" help:"Where to write the Owner's Atom feed URL (a secret like the token)." default:".data/demo/feed-url" type:"path"`
	AniList   string        `name:"anilist-listen" help:"Address of the local AniList stand-in the Trackers card talks to (port 0: any free port; empty: none, and TRACKER_ORIGINS as set)." default:"127.0.0.1:0"`
	Phone     time.Duration `name:"phone-every" help:"How often the demo's scripted phone (a SyncYomi client under the Owner's sync key, holding a few MangaPill Series) syncs; it reads a chapter at every other sync (0: no phone)." default:"2m"`
	MangaBaka string        `name:"mangabaka-listen" help:"Address of the local MangaBaka stand-in the Trackers card talks to, whose token is mb-demo-personal-access-token (port 0: any free port; empty: none, and TRACKER_ORIGINS as set)." default:"127.0.0.1:0"`
}

// Run starts the simulator, seeds the database, mints the Owner token and
// serves until interrupted.
func (c *DemoCmd) Run(ctx context.Context, env *Env) error {
	if c.Series <= 0 || c.Series > 5000 {
		return fmt.Errorf("demo: --series must be between 1 and 5000, got %d", c.Series)
	}
	if c.Refusing != "" && !slices.Contains(sitesim.SiteNames, c.Refusing) {
		return fmt.Errorf("demo: --refusing %q: unknown Site (known: %s)", c.Refusing, strings.Join(sitesim.SiteNames, ", "))
	}
	cfg, err := env.Config()
	if err != nil {
		return err
	}
	if cfg.OwnerDiscordID == "" {
		cfg.OwnerDiscordID = demoOwnerID
	}
	if len(cfg.TokenKey) == 0 {
		return fmt.Errorf("demo: TOKEN_KEY is unset: set any 32+ character value (scripts/demo.sh does)")
	}

	sim, err := demoSim(c.Series, c.NewEvery, c.Refusing, nil)
	if err != nil {
		return err
	}
	start := func() error { return sim.StartOn(c.SimListen) }
	if strings.HasSuffix(c.SimListen, ":0") {
		start = sim.Start // any six free loopback ports (tests)
	}
	if err := start(); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer sim.Close()
	cfg.SiteOrigins = sim.OriginsValue()
	env.Log.Info("site simulator started", "site_origins", cfg.SiteOrigins)
	stopMangaBaka, err := demoMangaBaka(&cfg, c.MangaBaka, c.Series, env.Log)
	if err != nil {
		return err
	}
	defer stopMangaBaka()
	stopAniList, err := demoAniList(&cfg, c.AniList, c.Series, env.Log)
	if err != nil {
		return err
	}
	defer stopAniList()
	if cfg.TrackerOrigins[crosswalk.Name] == "" {
		// The simulator's ids are no real story's: MangaBaka is asked about
		// them only when TRACKER_ORIGINS points the crosswalk at a stand-in.
		cfg.Crosswalk = false
	}
	if cfg.TrackerOrigins["mangaupdates"] == "" {
		cfg.ReleaseFeed = false // the demo sends nothing to MangaUpdates
	}

	seed := func(ctx context.Context, st *store.Store, reg *sites.Registry) error {
		if err := c.seed(ctx, st, reg, sim, cfg, env.Log); err != nil {
			return err
		}
		return c.seedFeed(ctx, st, cfg.OwnerDiscordID, cfg.TokenKey, cfg.PublicBaseURL, env)
	}
	return runServer(ctx, env, cfg, 10*time.Second, seed)
}

func (c *DemoCmd) seed(ctx context.Context, st *store.Store, reg *sites.Registry, sim *sitesim.Sim, cfg config.Config, log *slog.Logger) error {
	owner, _, err := demoLibrary(ctx, st, reg, sim, c.Series, cfg.OwnerDiscordID, time.Now())
	if err != nil {
		return err
	}
	svc, err := auth.New(auth.Config{Store: st, TokenKey: cfg.TokenKey, OwnerDiscordID: cfg.OwnerDiscordID})
	if err != nil {
		return err
	}
	if err := startDemoPhone(ctx, svc.MintSyncKey, owner, sim, c.Series, cfg.ListenAddr, c.Phone, log); err != nil {
		return fmt.Errorf("demo: the phone: %w", err)
	}
	tok, row, err := svc.MintOwnerToken(ctx, "demo console")
	if err != nil {
		return err
	}
	link, err := web.CreateLoginLink(ctx, st, row.ID, time.Now().Add(24*time.Hour))
	if err != nil {
		return err
	}
	if err := writeSecret(c.LinkFile, link); err != nil {
		return err
	}
	return writeSecret(c.TokenFile, tok)
}

// writeSecret writes one line to a file only its owner can read.
func writeSecret(path, line string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("demo: %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(line+"\n"), 0o600); err != nil {
		return fmt.Errorf("demo: %s: %w", path, err)
	}
	return nil
}

// seedFeed writes the Owner's feed URL to --feed-url-file (it carries the
// feed token, so it is never logged).
func (c *DemoCmd) seedFeed(ctx context.Context, st *store.Store, ownerID string, key []byte, baseURL string, env *Env) error {
	svc, err := readernotice.New(readernotice.Config{Store: st, Key: key, BaseURL: baseURL})
	if err != nil {
		return err
	}
	owner, err := st.GetReaderByDiscordID(ctx, ownerID)
	if err != nil {
		return err
	}
	set, err := svc.Settings(ctx, owner.ID)
	if err != nil {
		return err
	}
	if err := writeSecret(c.FeedFile, set.FeedURL); err != nil {
		return err
	}
	env.Log.Info("the Owner's Atom feed URL is written", "file", c.FeedFile)
	return nil
}
