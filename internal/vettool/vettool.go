// Package vettool is pidlint as a vet tool: the protocol go vet and go
// fix speak (-V=full, -flags, then one run per package with a vet.cfg),
// and a cheap answer for the facts-only runs go vet makes on every
// dependency that cannot export a fact.
package vettool

import (
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
)

// IsCall reports whether args are go vet's or go fix's call of a vet tool:
// a lone version or flags query, or flags and a vet.cfg file.
func IsCall(args []string) bool {
	// go vet asks for -V=full; -V and -version are the driver's.
	if len(args) == 1 && (args[0] == "-flags" || args[0] == "-V=full") {
		return true
	}
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// Main runs pidlint as a vet tool with the arguments IsCall accepted, and
// exits.
func Main(a *analysis.Analyzer) {
	cfgFile := os.Args[len(os.Args)-1]
	if writeTypesOnlyVetx(cfgFile) {
		os.Exit(0)
	}
	if jsonOutput(os.Args[1 : len(os.Args)-1]) {
		os.Args[len(os.Args)-1] = reportingConfig(cfgFile)
	}
	// singlechecker answers go vet's handshake and runs unitchecker on
	// the vet.cfg.
	singlechecker.Main(a)
}
