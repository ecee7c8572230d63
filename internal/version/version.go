// Package version says which pidlint a binary is: the version of the
// module it was built from.
package version

import "runtime/debug"

// Module is the version of the pidlint module this binary was built from:
// a tag such as v1.2.0 for go install …@v1.2.0, a pseudo-version or
// "(devel)" for a build in a checkout.
func Module() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// Released is Module for a build from a module download, else "".
func Released() string {
	if v := Module(); v != "(devel)" {
		return v
	}
	return ""
}
