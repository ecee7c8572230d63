// Command factcost runs pidlint in process over packages and reports what
// its facts cost: the number and gob-encoded size of the facts it exports
// (what go vet -vettool stores per package and reads back for every
// importer) and the time spent in pidlint's own passes, beside the time of
// the inspect pass it shares with other analyzers.
//
//	factcost [-json] packages
package main

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
)

type report struct {
	Packages     int           `json:"packages"`
	Facts        int           `json:"facts"`
	FactBytes    int           `json:"fact_bytes"`
	PackagesWith int           `json:"packages_with_facts"`
	PidlintTime  time.Duration `json:"pidlint_ns"`
	InspectTime  time.Duration `json:"inspect_ns"`
	Diagnostics  int           `json:"diagnostics"`
}

func main() {
	asJSON := flag.Bool("json", false, "print the report as JSON")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("factcost: ")
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: false}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		log.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		log.Fatal("packages did not load")
	}
	// One analyzer for the run, as golangci-lint's plugin makes it: what
	// it reads of GOROOT is read once.
	pidlint := analyzer.New(analyzer.Config{Cache: analyzer.NewCache()})
	graph, err := checker.Analyze([]*analysis.Analyzer{pidlint}, pkgs, &checker.Options{Sequential: true})
	if err != nil {
		log.Fatal(err)
	}
	var r report
	for act := range graph.All() {
		switch act.Analyzer {
		case inspect.Analyzer:
			r.InspectTime += act.Duration
		case pidlint:
			r.Packages++
			r.PidlintTime += act.Duration
			r.Diagnostics += len(act.Diagnostics)
			n, size := encodedFacts(act)
			r.Facts += n
			r.FactBytes += size
			if n > 0 {
				r.PackagesWith++
			}
		}
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	fmt.Printf("%d packages, %d facts in %d packages, %d bytes encoded; pidlint %v, inspect %v\n",
		r.Packages, r.Facts, r.PackagesWith, r.FactBytes, r.PidlintTime, r.InspectTime)
}

// encodedFacts counts the facts the action exported about its own package
// and their size as the vet-tool driver encodes them.
func encodedFacts(act *checker.Action) (n, size int) {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	for _, f := range act.AllObjectFacts() {
		if f.Object.Pkg() == act.Package.Types {
			n++
			enc.Encode(f.Fact)
		}
	}
	for _, f := range act.AllPackageFacts() {
		if f.Package == act.Package.Types {
			n++
			enc.Encode(f.Fact)
		}
	}
	return n, buf.Len()
}
