// Package probe has directives in files that build for one GOOS or several.
package probe
