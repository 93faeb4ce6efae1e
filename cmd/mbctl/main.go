// Command mbctl is the Owner's console: a live dashboard of the Poll Lanes
// (the default) and scriptable commands over the admin API.
package main

import (
	"os"

	"mangabookmark/cmd/mbctl/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv(version)))
}
