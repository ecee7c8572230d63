// Package signalwindows has a file that builds only for windows: a run on
// another host still reports its Process.Signal(0).
package signalwindows
