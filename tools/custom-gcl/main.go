// Command custom-gcl is golangci-lint v2.15.0 with the pidlint module plugin
// compiled in: the binary "golangci-lint custom" builds from .custom-gcl.yml,
// built from the module proxy and cache instead of a git clone.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/pidlint/pidlint/tools/golangci"
)

func main() {
	// Version "(devel)" makes golangci-lint salt its result cache with a
	// hash of this binary: a rebuild with a changed analyzer invalidates
	// it, an unchanged rebuild keeps it. (A VCS-stamped version would not.)
	info := commands.BuildInfo{Version: "(devel)", Commit: "golangci-lint v2.15.0 + pidlint plugin",
		Date: "(unknown)", GoVersion: runtime.Version()}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
