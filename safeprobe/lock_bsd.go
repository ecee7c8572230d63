//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package safeprobe

// lockTableHeld: these systems have no table of flock holders that names
// the file (fcntl F_GETLK does not see flock locks on every one of them),
// so Inspect asks with the shared-lock probe, and TryAcquire's grace
// retries (probeGrace1, probeGrace2) cover the moment it holds it.
func lockTableHeld(fd int) (held, known bool) { return false, false }
