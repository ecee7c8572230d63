// Package version says which pidlint a binary is: the version of the
// module it was built from and, for a build in a checkout, its commit.
package version

import (
	"runtime/debug"
	"strings"
)

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

// String is what -version prints: "pidlint VERSION" and, for a build in a
// checkout, the commit's settings as go version -m shows them
// (vcs.revision, vcs.time, vcs.modified).
func String() string {
	s := "pidlint " + Module()
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return s
	}
	for _, setting := range info.Settings {
		if strings.HasPrefix(setting.Key, "vcs.") {
			s += " " + setting.Key + "=" + setting.Value
		}
	}
	return s
}
