// Package proc keeps its liveness checks in files for one OS each.
package proc

// Pid is the process the checks look at.
var Pid = 1
