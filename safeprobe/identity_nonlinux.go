//go:build !linux

package safeprobe

import "os"

// lookupAgainst reads the whole identity: outside Linux no field is read
// only to be compared.
//
//	no process, EPERM, zombie, thread ID: as lookupState
func lookupAgainst(want Identity) (Identity, State, error) {
	return lookupState(want.PID)
}

// lookupSelf is lookup of this process.
func lookupSelf() (Identity, error) { return lookup(os.Getpid()) }
