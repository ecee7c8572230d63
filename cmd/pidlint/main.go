// Command pidlint reports unsafe process-liveness checks in Go code.
//
// Usage:
//
//	pidlint [-strict] [-fix] [-diff] [-json] [-safeprobe=path] [-disable=PL00N,…] packages
//	pidlint -explain PL00N
//	go vet -vettool=$(command -v pidlint) ./...
//
// Exit status: 0 when clean, 3 when it reports findings, 1 on errors.
package main

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/pidlint/pidlint/analyzer"
)

func main() {
	if len(os.Args) >= 2 && (os.Args[1] == "-explain" || os.Args[1] == "--explain") {
		os.Exit(explain(os.Args[2:]))
	}
	singlechecker.Main(analyzer.Analyzer)
}

// explain prints the documentation of the named rules, or of all.
func explain(ids []string) int {
	if len(ids) == 0 {
		for _, r := range analyzer.Rules {
			fmt.Printf("%s\n", r.Explain())
		}
		return 0
	}
	status := 0
	for _, id := range ids {
		r, ok := analyzer.LookupRule(id)
		if !ok {
			fmt.Fprintf(os.Stderr, "pidlint: unknown rule %q (rules: PL001..PL%03d)\n", id, len(analyzer.Rules))
			status = 1
			continue
		}
		fmt.Printf("%s\n", r.Explain())
	}
	return status
}
