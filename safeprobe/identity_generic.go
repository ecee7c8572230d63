//go:build !linux

package safeprobe

// lookupState is the identity of the process that has the PID now and its
// state. Linux reads both in one pass; elsewhere it is two questions, the
// state first: should the process exit and its PID be taken in between,
// the identity read second is the newcomer's, so the answer is Reused
// rather than the old process Running.
func lookupState(pid int) (Identity, State, error) {
	s, err := probe(pid)
	switch {
	case err != nil:
		return Identity{}, s, err
	case s == NotFound:
		return Identity{}, NotFound, processDone(pid)
	}
	id, err := lookup(pid)
	if err != nil {
		return Identity{}, Unknown, err
	}
	return id, s, nil
}
