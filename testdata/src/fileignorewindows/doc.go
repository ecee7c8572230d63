// Package fileignorewindows has a file that builds only for windows, with
// directives: a run on another host, which checks that file from its
// syntax alone, honours them and does not call them stale.
package fileignorewindows
