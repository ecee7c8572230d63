package main

import "runtime/debug"

// moduleVersion is the version of the pidlint module this binary was
// built from: a tag such as v1.2.0 for go install …@v1.2.0, a
// pseudo-version or "(devel)" for a build in a checkout.
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
