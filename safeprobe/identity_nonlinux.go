//go:build !linux

package safeprobe

// lookupAgainst reads the whole identity: outside Linux no field is read
// only to be compared.
//
//	no process, EPERM, zombie, thread ID: as lookupState
func lookupAgainst(want Identity) (Identity, State, error) {
	return lookupState(want.PID)
}
