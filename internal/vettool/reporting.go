package vettool

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// The go command (1.26) caches a vet run's facts and stdout under a key
// that leaves out whether the run was facts-only: a dependency's
// facts-only run, which reports nothing, is replayed when the package is
// later vetted itself (its findings lost), and a package's own run is
// replayed when it is later only a dependency (its findings printed for
// a package nobody named). With -json, pidlint's vet tool therefore
// reports in every run, so that whichever run the cache keeps holds the
// package's findings, and pidlint keeps those of the packages its
// patterns name (golang.findings). Without -json the go command keeps no
// stdout, and go vet's text route has the go command's behaviour.

// reportingConfig returns a vet.cfg that asks for the package's findings
// beside its facts: cfgFile itself when it asks already, or a copy
// without VetxOnly beside it; cfgFile when it cannot be read or the copy
// written (the run then goes on as go vet asked).
func reportingConfig(cfgFile string) string {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return cfgFile
	}
	var cfg map[string]any
	if json.Unmarshal(data, &cfg) != nil {
		return cfgFile
	}
	if only, _ := cfg["VetxOnly"].(bool); !only {
		return cfgFile
	}
	cfg["VetxOnly"] = false
	out, err := json.Marshal(cfg)
	if err != nil {
		return cfgFile
	}
	name := filepath.Join(filepath.Dir(cfgFile), "pidlint-"+filepath.Base(cfgFile))
	if os.WriteFile(name, out, 0o666) != nil {
		return cfgFile
	}
	return name
}

// jsonOutput reports whether go vet passed -json: the run's findings go
// to stdout, which the go command caches.
func jsonOutput(args []string) bool {
	for _, a := range args {
		if a == "-json" || a == "--json" || a == "-json=true" || a == "--json=true" {
			return true
		}
	}
	return false
}
