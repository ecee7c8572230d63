package safeprobe

// errNoSuchProcess is nil: Plan 9 has no ESRCH to match.
var errNoSuchProcess error
