// Package findprocesswindows holds os.FindProcess shapes for PL003 in a
// file that builds only for windows.
package findprocesswindows
