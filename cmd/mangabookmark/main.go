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
	"github.com/willabides/kongplete"

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
	Export  ExportCmd  `cmd:"" help:"Write a Reader's library (or every Reader's) as the JSON export the import takes back."`
	Version VersionCmd `cmd:"" help:"Print the version."`

	InstallCompletions kongplete.InstallCompletions `cmd:"" help:"Print the line that turns on tab completion in your login shell (bash, zsh or fish); add it to the shell's startup file."`
}

// Env is what every command receives: the logger and a lazily validated
// configuration (commands that need no configuration never load it).
type Env struct {
	Log    *slog.Logger
	Getenv func(string) string
	// Lookup, when set, tells a variable set to "" from an unset one
	// (os.LookupEnv), so an empty removed knob is refused too.
	Lookup func(string) (string, bool)
}

// Config loads and validates the environment.
func (e *Env) Config() (config.Config, error) {
	if e.Lookup != nil {
		return config.LoadLookup(e.Lookup)
	}
	return config.Load(e.Getenv)
}

func main() {
	os.Exit(runLookup(os.Args[1:], os.Getenv, os.LookupEnv))
}

func run(args []string, getenv func(string) string) int { return runLookup(args, getenv, nil) }

func runLookup(args []string, getenv func(string) string, lookup func(string) (string, bool)) int {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("mangabookmark"),
		kong.Description("Self-hosted manga bookmark backend: API, Poll Lanes and operator commands."),
		kong.UsageOnError(),
		kong.Exit(func(c int) { panic(exitCode(c)) }),
		kong.Vars{"sim_modes": simModes()},
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	kctx, exit, err := parse(parser, args)
	if exit != nil {
		return *exit
	}
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
	env := &Env{Log: newLogger(cli.LogFormat, cli.LogLevel), Getenv: getenv, Lookup: lookup}
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

// exitCode carries an exit kong asks for out of the parse (see parse).
type exitCode int

// parse answers a shell's completion request (COMP_LINE set) or parses
// args. An exit kong asks for (after --help, a completion or
// install-completions) comes back as exit instead of ending the process
// inside kong.
func parse(parser *kong.Kong, args []string) (kctx *kong.Context, exit *int, err error) {
	defer func() {
		if v := recover(); v != nil {
			c, ok := v.(exitCode)
			if !ok {
				panic(v)
			}
			code := int(c)
			kctx, exit, err = nil, &code, nil
		}
	}()
	kongplete.Complete(parser)
	kctx, err = parser.Parse(args)
	return kctx, nil, err
}
