package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/mattn/go-isatty"
	"github.com/willabides/kongplete"

	"mangabookmark/backend/safetext"
	"mangabookmark/client"
)

// Exit codes of Main.
const (
	ExitOK          = 0
	ExitServerNo    = 1
	ExitUsage       = 2
	ExitUnreachable = 3
)

// Env is everything Main takes from the outside world.
type Env struct {
	Getenv    func(string) string
	Stdout    io.Writer
	Stderr    io.Writer
	Now       func() time.Time
	ConfigDir func() (string, error) // os.UserConfigDir in production
	Version   string
	// Terminal reports whether Stdout is a terminal (colour and the dashboard).
	Terminal bool
	// Dashboard runs the interactive dashboard; nil uses the tui package.
	Dashboard func(ctx context.Context, c *client.Client, d *Deps) error
}

// OSEnv is the production Env.
func OSEnv(version string) Env {
	return Env{
		Getenv: os.Getenv, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now,
		ConfigDir: os.UserConfigDir, Version: version,
		Terminal: isatty.IsTerminal(os.Stdout.Fd()),
	}
}

// CLI is the command tree.
type CLI struct {
	Globals

	Dashboard DashboardCmd `cmd:"" default:"1" help:"Live dashboard of the Lanes, the failing worklist and notices (the default)."`
	Lanes     LanesCmd     `cmd:"" help:"Every Lane: state, due, behind-by, gap, windows and last pass."`
	Passes    PassesCmd    `cmd:"" help:"A Lane's recent passes, newest first."`
	Failing   FailingCmd   `cmd:"" help:"The failing worklist, oldest failure first."`
	Force     ForceCmd     `cmd:"" help:"Force a poll of one Series now."`
	Pause     PauseCmd     `cmd:"" help:"Pause a Lane for a while (2h, 90m, 1d, 1d12h)."`
	Resume    ResumeCmd    `cmd:"" help:"Lift a Lane's pause."`
	Notices   NoticesCmd   `cmd:"" help:"Open owner notices."`
	Works     WorksCmd     `cmd:"" help:"How many Works and links exist, made by ids or by Readers."`
	Offset    OffsetCmd    `cmd:"" help:"Set a Work member's shared offset, for every Reader (their own offsets on it are cleared)."`
	Unlink    UnlinkCmd    `cmd:"" help:"Take a member out of a Work for every Reader, for good (a Reader's own unlink holds in their library only)."`
	Login     LoginCmd     `cmd:"" help:"Check a server and token and save them to the config file."`
	Health    HealthCmd    `cmd:"" help:"Check that the server and its database answer (no token needed)."`
	Version   VersionCmd   `cmd:"" help:"Print mbctl's version."`

	InstallCompletions kongplete.InstallCompletions `cmd:"" help:"Print the line that turns on tab completion in your login shell (bash, zsh or fish); add it to the shell's startup file."`
}

// Globals are the flags every command takes.
type Globals struct {
	Server string `help:"Server URL, e.g. http://127.0.0.1:8080 (env MBCTL_SERVER, else the config file)." placeholder:"URL"`
	Token  string `help:"Owner API token (env MBCTL_TOKEN, else the config file)." placeholder:"TOKEN"`
	JSON   bool   `name:"json" help:"Print JSON for scripts instead of tables."`
}

// usageError is a mistake on the command line (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

type exitPanic int

// Main runs mbctl with args (without the program name) and returns the exit
// code.
func Main(args []string, env Env) (code int) {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	var cli CLI
	deps := &Deps{env: env, globals: &cli.Globals}
	parser, err := kong.New(&cli,
		kong.Name("mbctl"),
		kong.Description("The Owner's console for mangabookmark: a live dashboard and scriptable commands."),
		kong.Writers(env.Stdout, env.Stderr),
		kong.Exit(func(c int) { panic(exitPanic(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Bind(deps),
		kong.Vars{"outcomes": strings.Join(client.Outcomes, ", ")},
	)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mbctl: %v\n", err)
		return ExitUsage
	}
	defer func() {
		if v := recover(); v != nil {
			c, ok := v.(exitPanic)
			if !ok {
				panic(v)
			}
			code = int(c)
			if code != 0 {
				code = ExitUsage
			}
		}
	}()
	// A shell asking for completions (COMP_LINE set) is answered here and
	// exits 0 through kong.Exit; otherwise this returns at once.
	kongplete.Complete(parser)
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mbctl: %v\n(run `mbctl --help` for usage)\n", err)
		return ExitUsage
	}
	return report(env.Stderr, kctx.Run(deps))
}

// report prints err for a person and maps it to an exit code.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var u usageError
	var apiErr *client.APIError
	switch {
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "mbctl: %s\n(run `mbctl --help` for usage)\n", safetext.Show(u.msg))
		return ExitUsage
	case errors.Is(err, client.ErrUnreachable):
		fmt.Fprintf(stderr, "mbctl: %s\n", safetext.Show(err.Error()))
		return ExitUnreachable
	case errors.As(err, &apiErr):
		fmt.Fprintf(stderr, "mbctl: the server said no: %s\n", safetext.Show(apiErr.Error()))
		return ExitServerNo
	}
	fmt.Fprintf(stderr, "mbctl: %s\n", safetext.Show(err.Error()))
	return ExitServerNo
}
