package admin

import (
	"errors"
	"log/slog"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// Lanes is what the Owner's read model needs of the running Poll Lanes:
// waking a Lane so a Forced Poll or a pause takes effect at once, and the
// in-process facts the database does not hold. *lanes.Manager implements
// it; a nil Lanes means polling is not running in this process.
type Lanes interface {
	Wake(site string)
	Runtime(site string) lanes.Runtime
}

var _ Lanes = (*lanes.Manager)(nil)

// Config is the Service's collaborators.
type Config struct {
	Store *store.Store
	Sites *sites.Registry // nil: no Sites
	Lanes Lanes           // nil: no Lanes run here
	// ReleaseFeed says the release feed runs (RELEASE_FEED on): the Lane
	// views carry its state; off, they carry null.
	ReleaseFeed bool
	Log         *slog.Logger
	Now         func() time.Time
}

// Service is the Owner's read model and acts. Build it once per process
// (cmd wires it into both HTTP faces), Start its count cache, Stop it at
// shutdown after the HTTP server.
type Service struct {
	cfg    Config
	counts countCache
}

// New builds the Service, or says what in cfg is missing.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("admin: new: Store is required")
	}
	if cfg.Sites == nil {
		cfg.Sites, _ = sites.NewRegistry(nil)
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg}, nil
}

// Sites is the registry the Service reads the Lanes of.
func (s *Service) Sites() *sites.Registry { return s.cfg.Sites }

// wake wakes the running Lane of site; a no-op when no Lanes run here.
func (s *Service) wake(site string) {
	if s.cfg.Lanes != nil {
		s.cfg.Lanes.Wake(site)
	}
}
