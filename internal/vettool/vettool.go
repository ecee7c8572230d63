// Package vettool is pidlint as a vet tool: the protocol go vet and go
// fix speak (-V=full, -flags, then one run per package with a vet.cfg),
// and a cheap answer for the facts-only runs go vet makes on every
// dependency that cannot export a fact.
package vettool

import (
	"bytes"
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

// factWords are the identifiers without which a package declares no
// wrapper of a probe, and so exports no fact: a wrapper calls kill(2) or
// Process.Signal, or another wrapper (whose package then has facts).
var factWords = [][]byte{[]byte("Kill"), []byte("Signal")}

// MayExportFacts reports whether a file's source may make its package
// export an analysis fact.
func MayExportFacts(src []byte) bool {
	for _, w := range factWords {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// Main runs pidlint as a vet tool with the arguments IsCall accepted, and
// exits.
func Main(a *analysis.Analyzer) {
	if writeTypesOnlyVetx(os.Args[len(os.Args)-1]) {
		os.Exit(0)
	}
	// singlechecker answers go vet's handshake and runs unitchecker on
	// the vet.cfg.
	singlechecker.Main(a)
}
