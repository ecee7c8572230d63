//go:build !linux

package safeprobe

// lookupState is the identity of the process that has the PID now and its
// state. Linux reads both in one pass; elsewhere it is two questions.
func lookupState(pid int) (Identity, State, error) {
	id, err := lookup(pid)
	if err != nil {
		return Identity{}, Unknown, err
	}
	s, err := probe(pid)
	return id, s, err
}
