// Command mangabookmark is the backend: the HTTP API and the Poll Lanes,
// plus the operator commands that run beside them (migrate, token, sim).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kong"

	"mangabookmark/backend/config"
)

var version = "dev"

// CLI is the command line of the backend binary.
type CLI struct {
	LogFormat string `help:"Log format: text or json." enum:"text,json" default:"text" env:"LOG_FORMAT"`
	LogLevel  string `help:"Log level: debug, info, warn or error." enum:"debug,info,warn,error" default:"info" env:"LOG_LEVEL"`

	Serve   ServeCmd   `cmd:"" help:"Migrate the database, then serve the API and run the Poll Lanes."`
	Migrate MigrateCmd `cmd:"" help:"Apply or inspect database migrations."`
	Token   TokenCmd   `cmd:"" help:"Create, list and revoke API tokens."`
	Sim     SimCmd     `cmd:"" help:"Run the local simulator of the six Sites (for the demo and tests)."`
	Demo    DemoCmd    `cmd:"" help:"Run the backend on the Site simulator with a seeded library (make demo)."`
	Probe   ProbeCmd   `cmd:"" help:"Read one Series URL the way its Lane would and print what was found (writes nothing to the database)."`
	Version VersionCmd `cmd:"" help:"Print the version."`
}

// Env is what every command receives: the logger and a lazily validated
// configuration (commands that need no configuration never load it).
type Env struct {
	Log    *slog.Logger
	Getenv func(string) string
}

// Config loads and validates the environment.
func (e *Env) Config() (config.Config, error) { return config.Load(e.Getenv) }

func main() {
	os.Exit(run(os.Args[1:], os.Getenv))
}

func run(args []string, getenv func(string) string) int {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("mangabookmark"),
		kong.Description("Self-hosted manga bookmark backend: API, Poll Lanes and operator commands."),
		kong.UsageOnError(),
		kong.Vars{"sim_modes": simModes()},
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		// A command-line mistake exits 2, like a bad configuration (kong's
		// own FatalIfErrorf would exit 80).
		var perr *kong.ParseError
		if errors.As(err, &perr) {
			_ = perr.Context.PrintUsage(true)
		}
		parser.Errorf("%s", err)
		return 2
	}
	env := &Env{Log: newLogger(cli.LogFormat, cli.LogLevel), Getenv: getenv}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	kctx.BindTo(ctx, (*context.Context)(nil))
	if err := kctx.Run(env); err != nil {
		fmt.Fprintln(os.Stderr, "mangabookmark:", err)
		var cerr *config.Error
		var uerr *usageError
		if errors.As(err, &cerr) || errors.As(err, &uerr) {
			return 2
		}
		return 1
	}
	return 0
}

func newLogger(format, level string) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lv}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// VersionCmd prints the version.
type VersionCmd struct{}

// Run prints the version.
func (VersionCmd) Run() error {
	fmt.Println("mangabookmark", version)
	return nil
}
