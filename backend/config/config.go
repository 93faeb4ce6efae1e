package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults used when a variable is unset.
const (
	DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/mangabookmark?sslmode=disable"
	DefaultListenAddr  = "127.0.0.1:8080"
	// MinTokenKeyLen is the shortest TOKEN_KEY accepted: tokens are HMACs
	// under it, so a short key would make them guessable offline.
	MinTokenKeyLen = 32
)

// RemovedPaceKnobs are the settings that used to size one shared polling
// pace. Pace now lives only in the Site registry; a deployment that still
// sets one of these would silently expect behaviour that no longer exists,
// so the backend refuses to start and names it.
var RemovedPaceKnobs = []string{
	"LATEST_CHAPTER_POLL_COOLDOWN",
	"LATEST_CHAPTER_POLL_BROWSER_COOLDOWN",
	"LATEST_CHAPTER_POLL_INTERVAL",
	"LATEST_CHAPTER_POLL_BATCH",
	"LATEST_CHAPTER_POLL_STAGGER",
}

// RemovedAllowPrivate is NOTIFY_ALLOW_PRIVATE, which let every Reader's
// outlet reach every private address (in compose: the database and the
// browser sidecar). NOTIFY_ALLOW_NETS names the networks instead; the
// backend refuses to start while the old switch is set, so no deployment
// silently loses (or keeps) the access it expected.
const RemovedAllowPrivate = "NOTIFY_ALLOW_PRIVATE"

// Config is the validated environment of the backend.
type Config struct {
	DatabaseURL         string
	ListenAddr          string
	PublicBaseURL       string
	TokenKey            []byte
	OwnerDiscordID      string
	DiscordClientID     string
	DiscordClientSecret string
	DiscordGuildID      string
	DiscordWebhookURL   string
	BrowserWSURL        string
	SiteOrigins         string // raw; parsed against the registry by the caller
	PollEnabled         bool

	// DiscordReadersWebhookURL is DISCORD_READERS_WEBHOOK_URL: the channel
	// Readers who opt in hear of New Chapters in ("" : no Discord outlet).
	DiscordReadersWebhookURL string
	// NotifyAllowNets is NOTIFY_ALLOW_NETS: the private or loopback
	// networks Reader outlet URLs may reach (a home setup's ntfy on the
	// LAN); every other private address stays refused. A bare address is
	// its own network (/32, /128).
	NotifyAllowNets []netip.Prefix

	// AniListClientID and AniListClientSecret are ANILIST_CLIENT_ID and
	// ANILIST_CLIENT_SECRET: the AniList client the Owner registered, for
	// the Connect button's authorization-code flow (both or neither; ""
	// : Readers paste a token instead). The secret is never logged.
	AniListClientID     string
	AniListClientSecret string
	// TrackerOrigins is TRACKER_ORIGINS parsed: tracker name (one of
	// Trackers) to the origin its API and OAuth are fetched from instead
	// of the real service's (a local stand-in for the demo and tests).
	TrackerOrigins map[string]string
	// Crosswalk is CROSSWALK (on by default): whether a Series gaining a
	// tracker id asks MangaBaka's public source lookup for its other ids
	// (backend/crosswalk). Off, nothing is sent to MangaBaka for it.
	Crosswalk bool
	// ReleaseFeed is RELEASE_FEED (on by default): whether MangaUpdates'
	// release list is read every 10 minutes to hint the followed Series
	// its releases name (backend/releasefeed). Off, nothing is sent to
	// MangaUpdates for it.
	ReleaseFeed bool
}

// Trackers are the names TRACKER_ORIGINS may name: the trackers and
// catalogues this build can talk to (backend/trackers, backend/crosswalk:
// mangabaka; the release feed: mangaupdates). A new one adds its name.
var Trackers = []string{"anilist", "mangabaka", "mangaupdates"}

// AniListEnabled reports whether the AniList authorization-code flow is
// configured (the Connect button shows only then).
func (c Config) AniListEnabled() bool { return c.AniListClientID != "" }

// OAuthEnabled reports whether Discord login is configured.
func (c Config) OAuthEnabled() bool { return c.DiscordClientID != "" }

// Error is a configuration problem with one variable.
type Error struct {
	Var    string
	Reason string
}

func (e *Error) Error() string { return "config: " + e.Var + ": " + e.Reason }

// Load reads and validates the environment through getenv (a map in
// tests). A getenv cannot tell a variable set to "" from an unset one; the
// binary uses LoadLookup with os.LookupEnv.
func Load(getenv func(string) string) (Config, error) {
	return LoadLookup(func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	})
}

// LoadLookup reads and validates the environment through lookup
// (os.LookupEnv in main). A removed pace knob is refused when present at
// all, even set to "". It reports every problem it finds, joined.
func LoadLookup(lookup func(string) (string, bool)) (Config, error) {
	var errs []error
	bad := func(name, reason string) { errs = append(errs, &Error{Var: name, Reason: reason}) }
	lookup = withSecretFiles(lookup, bad)
	getenv := func(name string) string { v, _ := lookup(name); return v }
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }

	for _, k := range RemovedPaceKnobs {
		if _, present := lookup(k); present {
			bad(k, "this setting was removed: pace lives in the Site registry now; delete it from the environment, even when empty (LATEST_CHAPTER_POLL_ENABLED is the only poll switch)")
		}
	}

	c := Config{
		DatabaseURL:         get("DATABASE_URL"),
		ListenAddr:          get("LISTEN_ADDR"),
		PublicBaseURL:       strings.TrimRight(get("PUBLIC_BASE_URL"), "/"),
		OwnerDiscordID:      get("OWNER_DISCORD_ID"),
		DiscordClientID:     get("DISCORD_CLIENT_ID"),
		DiscordClientSecret: get("DISCORD_CLIENT_SECRET"),
		DiscordGuildID:      get("DISCORD_GUILD_ID"),
		DiscordWebhookURL:   get("DISCORD_WEBHOOK_URL"),
		BrowserWSURL:        get("BROWSER_WS_URL"),
		SiteOrigins:         get("SITE_ORIGINS"),
		PollEnabled:         true,
		Crosswalk:           true,
		ReleaseFeed:         true,
	}

	if c.DatabaseURL == "" {
		c.DatabaseURL = DefaultDatabaseURL
	}
	if _, err := pgxpool.ParseConfig(c.DatabaseURL); err != nil {
		// The parse error can quote the URL, password included: never echo it.
		bad("DATABASE_URL", "not a valid PostgreSQL connection URL (postgres://user@host:port/db) or key=value string")
	}

	if c.ListenAddr == "" {
		c.ListenAddr = DefaultListenAddr
	}
	if host, port, err := net.SplitHostPort(c.ListenAddr); err != nil {
		bad("LISTEN_ADDR", fmt.Sprintf("%q is not host:port (for example 127.0.0.1:8080 or :8080)", c.ListenAddr))
	} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		bad("LISTEN_ADDR", fmt.Sprintf("port %q is not a number from 0 to 65535", port))
	} else if host != "" && net.ParseIP(host) == nil && host != "localhost" {
		bad("LISTEN_ADDR", fmt.Sprintf("host %q is not an IP address or localhost", host))
	}

	if c.PublicBaseURL == "" {
		c.PublicBaseURL = "http://" + c.ListenAddr
		if strings.HasPrefix(c.ListenAddr, ":") {
			c.PublicBaseURL = "http://localhost" + c.ListenAddr
		}
	} else if u, err := url.Parse(c.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		bad("PUBLIC_BASE_URL", "must be an absolute http(s) URL such as https://manga.example.org")
	}

	if k := getenv("TOKEN_KEY"); k != "" {
		if len(k) < MinTokenKeyLen {
			bad("TOKEN_KEY", fmt.Sprintf("too short: use at least %d random characters (openssl rand -hex 32)", MinTokenKeyLen))
		}
		c.TokenKey = []byte(k)
	}

	if c.OwnerDiscordID != "" && !isSnowflake(c.OwnerDiscordID) {
		bad("OWNER_DISCORD_ID", "must be a Discord user id (digits only)")
	}
	if c.DiscordGuildID != "" && !isSnowflake(c.DiscordGuildID) {
		bad("DISCORD_GUILD_ID", "must be a Discord guild id (digits only)")
	}
	oauth := []string{c.DiscordClientID, c.DiscordClientSecret, c.DiscordGuildID}
	set := 0
	for _, v := range oauth {
		if v != "" {
			set++
		}
	}
	if set != 0 && set != len(oauth) {
		bad("DISCORD_CLIENT_ID", "Discord login needs DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_GUILD_ID together; set all three or none")
	}

	if c.DiscordWebhookURL != "" {
		// The URL embeds the webhook's secret token: the reason never quotes it.
		if u, err := url.Parse(c.DiscordWebhookURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("DISCORD_WEBHOOK_URL", "must be the https URL Discord shows for the webhook")
		}
	}

	c.DiscordReadersWebhookURL = get("DISCORD_READERS_WEBHOOK_URL")
	if c.DiscordReadersWebhookURL != "" {
		// The URL embeds the webhook's secret token: the reason never quotes it.
		if u, err := url.Parse(c.DiscordReadersWebhookURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("DISCORD_READERS_WEBHOOK_URL", "must be the https URL Discord shows for the readers' channel webhook")
		}
	}
	if _, present := lookup(RemovedAllowPrivate); present {
		bad(RemovedAllowPrivate, "this setting was removed: it let every Reader's outlet reach every private address, the database and the browser sidecar included; name the networks outlets may reach in NOTIFY_ALLOW_NETS instead (for example NOTIFY_ALLOW_NETS=192.168.1.0/24), and delete this one, even when empty")
	}
	if v := get("NOTIFY_ALLOW_NETS"); v != "" {
		nets, reason := parseNets(v)
		if reason != "" {
			bad("NOTIFY_ALLOW_NETS", reason)
		}
		c.NotifyAllowNets = nets
	}

	c.AniListClientID = get("ANILIST_CLIENT_ID")
	c.AniListClientSecret = get("ANILIST_CLIENT_SECRET")
	switch {
	case (c.AniListClientID == "") != (c.AniListClientSecret == ""):
		bad("ANILIST_CLIENT_ID", "the AniList Connect button needs ANILIST_CLIENT_ID and ANILIST_CLIENT_SECRET together; set both or neither")
	case c.AniListClientID != "" && !isSnowflake(c.AniListClientID):
		bad("ANILIST_CLIENT_ID", "must be the client id AniList shows for the registered client (digits only)")
	case c.AniListClientID != "" && len(c.TokenKey) == 0:
		bad("ANILIST_CLIENT_ID", "needs TOKEN_KEY: AniList tokens are sealed at rest under a key derived from it")
	}
	if v := get("TRACKER_ORIGINS"); v != "" {
		o, reason := parseTrackerOrigins(v)
		if reason != "" {
			bad("TRACKER_ORIGINS", reason)
		}
		c.TrackerOrigins = o
	}

	if v := get("CROSSWALK"); v != "" {
		switch strings.ToLower(v) {
		case "on":
			c.Crosswalk = true
		case "off":
			c.Crosswalk = false
		default:
			bad("CROSSWALK", fmt.Sprintf("%q is neither on nor off (on, the default, asks MangaBaka for a Series' other ids; off sends it nothing)", v))
		}
	}

	if v := get("RELEASE_FEED"); v != "" {
		switch strings.ToLower(v) {
		case "on":
			c.ReleaseFeed = true
		case "off":
			c.ReleaseFeed = false
		default:
			bad("RELEASE_FEED", fmt.Sprintf("%q is neither on nor off (on, the default, reads MangaUpdates' release list every 10 minutes; off sends it nothing)", v))
		}
	}

	if c.BrowserWSURL != "" {
		if u, err := url.Parse(c.BrowserWSURL); err != nil || (u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http") || u.Host == "" {
			bad("BROWSER_WS_URL", "must be a DevTools address such as ws://127.0.0.1:9222/devtools/browser/<id> or http://127.0.0.1:9222")
		}
	}

	if v := get("LATEST_CHAPTER_POLL_ENABLED"); v != "" {
		on, ok := parseBool(v)
		if !ok {
			bad("LATEST_CHAPTER_POLL_ENABLED", fmt.Sprintf("%q is not a boolean (true/false, 1/0, yes/no, on/off)", v))
		}
		c.PollEnabled = on
	}

	return c, errors.Join(errs...)
}

// parseTrackerOrigins reads TRACKER_ORIGINS: comma-separated
// tracker=origin pairs ("anilist=http://127.0.0.1:9100"), each origin an
// http(s) scheme and host with no user, path, query or fragment. It
// returns the map (origins without a trailing slash) or the reason the
// value is refused.
func parseTrackerOrigins(v string) (map[string]string, string) {
	out := map[string]string{}
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, origin, ok := strings.Cut(entry, "=")
		name, origin = strings.TrimSpace(name), strings.TrimSpace(origin)
		switch {
		case !ok || name == "" || origin == "":
			return nil, fmt.Sprintf("entry %q is not tracker=origin (for example anilist=http://127.0.0.1:9100)", entry)
		case !slices.Contains(Trackers, name):
			return nil, fmt.Sprintf("names unknown tracker %q (known: %s)", name, strings.Join(Trackers, ", "))
		case out[name] != "":
			return nil, fmt.Sprintf("names %q twice", name)
		}
		u, err := url.Parse(origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
			u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Sprintf("entry %q: the origin must be an http(s) scheme and host only, such as http://127.0.0.1:9100", entry)
		}
		out[name] = u.Scheme + "://" + strings.ToLower(u.Host)
	}
	return out, ""
}

// parseNets reads a comma-separated list of CIDR networks or bare
// addresses, or says why it cannot.
func parseNets(v string) ([]netip.Prefix, string) {
	var out []netip.Prefix
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(f); err == nil && a.Zone() == "" {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		return nil, fmt.Sprintf("%q is not a network; write networks as CIDRs separated by commas, such as 192.168.1.0/24,fd00::/64", f)
	}
	return out, ""
}

func isSnowflake(s string) bool {
	if len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "1", "t", "true", "yes", "y", "on":
		return true, true
	case "0", "f", "false", "no", "n", "off":
		return false, true
	}
	return false, false
}
