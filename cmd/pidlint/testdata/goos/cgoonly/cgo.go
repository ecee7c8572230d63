//go:build cgo

// Package cgoonly needs cgo: its Windows file calls a cgo-built helper.
package cgoonly

// #include <unistd.h>
import "C"

func parent() int { return int(C.getppid()) }
