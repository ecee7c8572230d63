package safeprobe

import "context"

// InspectTrusted is InspectContext for a caller that will act on what it
// reports (a status check that decides whether to start a service, say):
// it first refuses, as TryAcquire and SignalOwner do (checkedPath), an
// empty or directory path, a lock path below a
// directory another user may change, and a lock file another user owns,
// whose record is that user's claim (ErrUnsafePath, naming the directory
// or file and its owner). On Windows InspectContext refuses such a file
// already; the directories above it are checked here.
func InspectTrusted(ctx context.Context, path string) (Status, error) {
	lp, err := checkedPath(path, lockFilePath)
	if err != nil {
		return Status{Path: path}, &LockError{Op: "inspect", Path: path, Err: err}
	}
	return inspect(ctx, lp, inspectQuery{op: "inspect",
		check: func(f lockFile) error { return trustedOwner(f.owner(), "file") }})
}
