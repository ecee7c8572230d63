// Command noop is an analyzer that does nothing, built as pidlint is
// (singlechecker, the same loader and flags): the baseline pidlint's
// overhead is measured against.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
)

var Analyzer = &analysis.Analyzer{
	Name: "noop",
	Doc:  "noop reports nothing; it measures the cost of loading and type checking.",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { singlechecker.Main(Analyzer) }
